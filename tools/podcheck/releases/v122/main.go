// Command printer prints the READY, STATUS, RESTARTS and AGE columns of the
// upstream pod printer (k8s.io/kubernetes pkg/printers/internalversion) of the
// release this module requires (see go.mod), for tools/podcheck.
//
// Input (stdin): one JSON object per line, {"now": RFC 3339 time, "pod": Pod}.
// Output (stdout): one JSON array of the four column strings per input line.
// The upstream printer measures ages from the wall clock, so every time in the
// pod is moved by the wall-clock time elapsed since "now" just before it is
// printed: the ages come out as they were at "now". Fields that this release's
// API does not know are dropped, as its API server would have.
//
// Every release folder holds the same main.go (TestReleaseSourcesIdentical).
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	api "k8s.io/kubernetes/pkg/apis/core"
	apiv1 "k8s.io/kubernetes/pkg/apis/core/v1"
	"k8s.io/kubernetes/pkg/printers"
	"k8s.io/kubernetes/pkg/printers/internalversion"
)

type request struct {
	Now time.Time       `json:"now"`
	Pod json.RawMessage `json:"pod"`
}

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "printer:", err)
		os.Exit(1)
	}
}

func run() error {
	generator := printers.NewTableGenerator().With(internalversion.AddHandlers)
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 64<<20)
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	enc := json.NewEncoder(out)
	for in.Scan() {
		var req request
		if err := json.Unmarshal(in.Bytes(), &req); err != nil {
			return err
		}
		var pod corev1.Pod
		if err := json.Unmarshal(req.Pod, &pod); err != nil {
			return err
		}
		var internal api.Pod
		if err := apiv1.Convert_v1_Pod_To_core_Pod(&pod, &internal, nil); err != nil {
			return fmt.Errorf("convert %s: %w", pod.Name, err)
		}
		shift(reflect.ValueOf(&internal), time.Since(req.Now))
		table, err := generator.GenerateTable(&internal, printers.GenerateOptions{})
		if err != nil {
			return err
		}
		if len(table.Rows) != 1 || len(table.Rows[0].Cells) < 5 {
			return fmt.Errorf("%s: unexpected table %+v", pod.Name, table.Rows)
		}
		var cols [4]string
		for i := range cols {
			cols[i] = fmt.Sprint(table.Rows[0].Cells[i+1])
		}
		if err := enc.Encode(cols); err != nil {
			return err
		}
	}
	return in.Err()
}

var timeType = reflect.TypeOf(metav1.Time{})

// shift adds d to every non-zero metav1.Time reachable from v.
func shift(v reflect.Value, d time.Duration) {
	switch v.Kind() {
	case reflect.Ptr, reflect.Interface:
		if !v.IsNil() {
			shift(v.Elem(), d)
		}
	case reflect.Struct:
		if v.Type() == timeType {
			if t := v.Addr().Interface().(*metav1.Time); !t.IsZero() {
				t.Time = t.Time.Add(d)
			}
			return
		}
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() {
				shift(v.Field(i), d)
			}
		}
	case reflect.Slice, reflect.Array:
		for i := 0; i < v.Len(); i++ {
			shift(v.Index(i), d)
		}
	}
}
