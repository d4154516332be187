package podcheck

import (
	"fmt"
	"time"

	corev1 "k8s.io/api/core/v1"
	api "k8s.io/kubernetes/pkg/apis/core"
	apiv1 "k8s.io/kubernetes/pkg/apis/core/v1"
	"k8s.io/kubernetes/pkg/printers"
	"k8s.io/kubernetes/pkg/printers/internalversion"

	"github.com/mgtriage/mgtriage/parser/podstatus"
)

// Columns are READY, STATUS, RESTARTS, AGE.
type Columns [4]string

var generator = printers.NewTableGenerator().With(internalversion.AddHandlers)

// Upstream returns the columns the upstream server-side printer prints for
// pod. It measures ages from the wall clock.
func Upstream(pod *corev1.Pod) (Columns, error) {
	var internal api.Pod
	if err := apiv1.Convert_v1_Pod_To_core_Pod(pod, &internal, nil); err != nil {
		return Columns{}, fmt.Errorf("convert %s: %w", pod.Name, err)
	}
	table, err := generator.GenerateTable(&internal, printers.GenerateOptions{})
	if err != nil {
		return Columns{}, err
	}
	if len(table.Rows) != 1 || len(table.Rows[0].Cells) < 5 {
		return Columns{}, fmt.Errorf("%s: unexpected table %+v", pod.Name, table.Rows)
	}
	var c Columns
	for i := range c {
		c[i] = fmt.Sprint(table.Rows[0].Cells[i+1])
	}
	return c, nil
}

// Ours returns the columns podstatus.Compute prints for pod at now.
func Ours(pod *corev1.Pod, now time.Time, v podstatus.Version) Columns {
	c := podstatus.Compute(pod, now, v)
	return Columns{c.Ready, c.Status, c.Restarts, c.Age}
}
