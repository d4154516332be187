package model

import (
	"testing"
	"unsafe"
)

// TestContainerLogPath: a log's path reads back as it was set, whatever its
// depth, and the logs of one pod share the pod's folder and the logs of one
// container name share the rest, however the path strings were made.
func TestContainerLogPath(t *testing.T) {
	table := map[string]string{}
	in := func(s string) string {
		if c, ok := table[s]; ok {
			return c
		}
		table[s] = s
		return s
	}
	for _, p := range []string{
		"",
		"current.log",
		"/current.log",
		"a/b/c/current.log",
		"/a/b/c/current.log",
		"must-gather.local.1/quay-io-img/namespaces/shop/pods/web-1/app/app/logs/current.log",
		"x.tar.gz!/mg/ns/pods/p/c/c/logs/previous.insecure.log",
		"a//b/c/d/e",
		"trailing/slash/a/b/c/",
	} {
		l := &ContainerLog{}
		l.SetPath(p, in)
		if got := l.Path(); got != p {
			t.Errorf("SetPath(%q).Path() = %q", p, got)
		}
	}
	dir := "mg/namespaces/shop/pods/web-1/"
	var logs []*ContainerLog
	for _, rest := range []string{"app/app/logs/current.log", "app/app/logs/previous.log", "proxy/proxy/logs/current.log"} {
		l := &ContainerLog{}
		l.SetPath(string([]byte(dir+rest)), in) // a fresh copy of the text
		logs = append(logs, l)
	}
	other := &ContainerLog{}
	other.SetPath(string([]byte("mg/namespaces/cart/pods/web-2/app/app/logs/current.log")), in)
	for _, l := range logs[1:] {
		if unsafe.StringData(l.dir) != unsafe.StringData(logs[0].dir) {
			t.Errorf("%s does not share its pod's folder", l.Path())
		}
	}
	if unsafe.StringData(other.file) != unsafe.StringData(logs[0].file) {
		t.Errorf("%s and %s do not share their file name", other.Path(), logs[0].Path())
	}
}

// TestPodLogNeverRotated: Pod.Log returns a container's current or previous
// run's log, never a rotated file of it, whatever the order of Pod.Logs and
// even when the rotated files are all the gather holds of the container.
func TestPodLogNeverRotated(t *testing.T) {
	current := &ContainerLog{Container: "app"}
	previous := &ContainerLog{Container: "app", Previous: true}
	p := &Pod{Logs: []*ContainerLog{
		{Container: "app", Rotated: "3.log.20261120-090000"},
		{Container: "app", Rotated: "2.log.20261120-080000.gz"},
		current, previous,
		{Container: "other", Rotated: "0.log.20261120-080000"},
	}}
	if got := p.Log("app", false); got != current {
		t.Errorf("Log(app, current) = %+v, want the current run's log", got)
	}
	if got := p.Log("app", true); got != previous {
		t.Errorf("Log(app, previous) = %+v, want the previous run's log", got)
	}
	for _, prev := range []bool{false, true} {
		if got := p.Log("other", prev); got != nil {
			t.Errorf("Log(other, %v) = %+v, want nil: a rotated file is no run's log", prev, got)
		}
	}
}
