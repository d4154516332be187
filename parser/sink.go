package parser

import (
	"fmt"
	"io"
	"time"

	"github.com/mgtriage/mgtriage/parser/load"
	"github.com/mgtriage/mgtriage/parser/model"
)

// The builder is the load.Load the formats' readers (parser/installbundle)
// read into.
var _ load.Load = (*builder)(nil)

// Problem records a gather problem at path (load.Load).
func (b *builder) Problem(path, why string) { b.problem(path, why) }

// ReferenceTime is the best "now" known so far (load.Load): referenceTime.
func (b *builder) ReferenceTime() time.Time { return b.referenceTime() }

// Intern returns the load's copy of s (load.Load): intern.
func (b *builder) Intern(s string) string { return intern(s) }

// CutText bounds s to MaxProblemBytes (load.Load): cutText.
func (b *builder) CutText(s string) string { return cutText(s) }

// ScanLines is scanLinesCounted, with the error of a line far longer than
// MaxLineBytes (load.Load).
func (b *builder) ScanLines(r io.Reader, fn func(n int, line []byte)) error {
	var cut longLines
	err := scanLinesCounted(r, fn, &cut)
	if err == nil {
		err = cut.err()
	}
	return err
}

// ReadTail keeps the tail and error lines of a container log (load.Load):
// readTail.
func (b *builder) ReadTail(r io.Reader, l *model.ContainerLog) error {
	_, err := readTail(r, l, true)
	return err
}

// objectKinds are the member kinds the load reads each load.Content as.
var objectKinds = map[load.Content]fileKind{
	load.PodCaptures:         kindCaptureObjects,
	load.Events:              kindAnyEvents,
	load.NodeList:            kindNodeList,
	load.ClusterOperatorList: kindClusterOperators,
	load.ObjectList:          kindObjectList,
}

// ReadObjects reads data as the member kind of o.Content would be read
// (load.Load): decodeHeavy, without the lock.
func (b *builder) ReadObjects(p string, o load.Objects, data []byte) error {
	k, ok := objectKinds[o.Content]
	if !ok {
		return fmt.Errorf("no reader for content %d", o.Content)
	}
	return b.decodeHeavy(p, classified{Kind: k, Root: o.Root, Group: o.Kind.Group, Resource: o.Kind.Resource}, data)
}
