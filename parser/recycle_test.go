package parser

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/mgtriage/mgtriage/parser/model"
)

// TestRecycledBuffersAreNotKept loads gathers twice, the second time with
// every buffer handed back to the load's bufpool.Pool overwritten
// (Options.scribble), and wants the same model: a reader that kept a slice
// of a recycled file (a string made without a copy, an item's text) would
// then hold 0xA5 bytes. The model is compared as JSON: the Gather's
// exported fields and every object of the store. It covers the bundled
// sample, the cause fixtures and, outside -short, the shared corpus as
// folders and one gather as a .tar.gz.
func TestRecycledBuffersAreNotKept(t *testing.T) {
	inputs, _ := filepath.Glob("../fixtures/causes/*")
	inputs = append(inputs, "../fixtures/sample")
	if !testing.Short() {
		corpus, _ := filepath.Glob("../../shared/corpus/*")
		inputs = append(inputs, corpus...)
		if dir := "../../shared/corpus/mg-metal-ocp49"; dirExists(dir) {
			inputs = append(inputs, writeTarGz(t, dir))
		}
	}
	model := func(t *testing.T, in string, scribble bool) []byte {
		g, err := LoadWith(context.Background(), in, Options{scribble: scribble})
		if err != nil {
			t.Skipf("not one gather: %v", err)
		}
		var objects [][]byte
		for _, ks := range g.Objects.Summary() {
			list, _ := g.Objects.List(ks.Kind, "")
			for _, o := range list {
				j, err := json.Marshal(o)
				if err != nil {
					t.Fatal(err)
				}
				objects = append(objects, j)
			}
		}
		j, err := json.Marshal(struct {
			G       *model.Gather
			Objects [][]byte
		}{g, objects})
		if err != nil {
			t.Fatal(err)
		}
		return j
	}
	n := 0
	for _, in := range inputs {
		if fi, err := os.Stat(in); err != nil || !fi.IsDir() && filepath.Ext(in) != ".gz" {
			continue
		}
		n++
		t.Run(filepath.Base(in), func(t *testing.T) {
			plain := model(t, in, false)
			if scribbled := model(t, in, true); string(plain) != string(scribbled) {
				t.Errorf("the model differs when recycled buffers are overwritten: a reader keeps a slice of one\n%s", firstDifference(plain, scribbled))
			}
		})
	}
	if n < 10 {
		t.Fatalf("only %d inputs found", n)
	}
}

func dirExists(dir string) bool {
	fi, err := os.Stat(dir)
	return err == nil && fi.IsDir()
}

// firstDifference shows the two texts around the first byte where they differ.
func firstDifference(a, b []byte) string {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	from := max(0, i-200)
	return "plain:     " + string(a[from:min(len(a), i+200)]) + "\nscribbled: " + string(b[from:min(len(b), i+200)])
}
