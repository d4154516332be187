package parser

import (
	"fmt"
	"io"
	"time"

	"github.com/mgtriage/mgtriage/parser/load"
	"github.com/mgtriage/mgtriage/parser/model"
)

// The builder is the load.Load the formats' readers (parser/mustgather,
// parser/installbundle, parser/sosreport, parser/insights, parser/supportbundle) read into.
var _ load.Load = (*builder)(nil)

// Problem records a gather problem at path (load.Load).
func (b *builder) Problem(path, why string) { b.problem(path, why) }

// ReferenceTime is the best "now" known so far (load.Load): referenceTime.
func (b *builder) ReferenceTime() time.Time { return b.referenceTime() }

// GatherTimes records the gather times of the folder dir (load.Load).
func (b *builder) GatherTimes(dir string, times []time.Time) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.timestamps[dir] = times
}

// Intern returns the load's copy of s (load.Load): intern.
func (b *builder) Intern(s string) string { return b.strs.intern(s) }

// CutText bounds s to MaxProblemBytes (load.Load): cutText.
func (b *builder) CutText(s string) string { return cutText(s) }

// ScanLines is scanLinesCounted, with the error of a line far longer than
// MaxLineBytes (load.Load).
func (b *builder) ScanLines(r io.Reader, fn func(n int, line []byte)) error {
	var cut longLines
	err := scanLinesCounted(r, fn, &cut, b.scratch)
	if err == nil {
		err = cut.err()
	}
	return err
}

// ReadTail keeps the tail and error lines of a container log (load.Load):
// readTail.
func (b *builder) ReadTail(r io.Reader, l *model.ContainerLog) error {
	_, err := readTail(r, l, true, b.logMatch, b.scratch)
	return err
}

// listKinds are the member kinds the load reads the list contents as.
var listKinds = map[load.Content]fileKind{
	load.NodeList:            kindNodeList,
	load.ClusterOperatorList: kindClusterOperators,
	load.ObjectList:          kindObjectList,
}

// ReadObjects reads data as o.Content (load.Load): the lists as the member
// kind a must-gather holds them in would be read (decodeHeavy, without the
// lock), event lists, pod captures and one ClusterOperator by the load's
// readers of them. It records the problems of the items itself.
func (b *builder) ReadObjects(p string, o load.Objects, data []byte) error {
	var errs []error
	switch o.Content {
	case load.Events:
		b.objects.MarkGathered(model.Events, o.Namespace)
		errs = b.readAnyEvents(p, o.Namespace, data)
	case load.PodCaptures:
		errs = b.readPodCaptures(p, o.Root, data)
	case load.ClusterOperator:
		errs = b.readClusterOperator(p, o.Name, data)
	default:
		k, ok := listKinds[o.Content]
		if !ok {
			return fmt.Errorf("no reader for content %d", o.Content)
		}
		return b.decodeHeavy(p, classified{Kind: k, Root: o.Root, Group: o.Kind.Group, Resource: o.Kind.Resource}, data)
	}
	for _, err := range errs {
		b.problem(p, err.Error())
	}
	return nil
}
