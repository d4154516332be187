package parser

import (
	"testing"
	"time"

	"github.com/mgtriage/mgtriage/parser/model"
	"github.com/mgtriage/mgtriage/parser/podstatus"
)

func TestCrashLoopSinceFromOldestBackOffEvent(t *testing.T) {
	t0 := time.Date(2026, 11, 20, 8, 0, 0, 0, time.UTC)
	ev := func(msg string, first time.Time) *model.Event {
		return &model.Event{Object: model.EventObject{InvolvedObject: &model.EventReference{Kind: "Pod"}, Reason: "BackOff", Message: msg, FirstTimestamp: model.StampOf(first)}}
	}
	p := &model.Pod{
		Containers: []podstatus.Container{{Name: "app", Reason: "CrashLoopBackOff"}, {Name: "app-sidecar", Reason: "CrashLoopBackOff"}},
		Events: []*model.Event{
			ev("Back-off restarting failed container app in pod web_shop(uid)", t0.Add(time.Hour)),
			ev("Back-off restarting failed container app in pod web_shop(uid)", t0),
			ev("Back-off restarting failed container app-sidecar in pod web_shop(uid)", t0.Add(2*time.Hour)),
		},
	}
	crashLoopSince(p)
	if !p.Containers[0].CrashLoopSince.Equal(t0) || !p.Containers[1].CrashLoopSince.Equal(t0.Add(2*time.Hour)) {
		t.Errorf("since = %v, %v", p.Containers[0].CrashLoopSince, p.Containers[1].CrashLoopSince)
	}
}

func TestKubeVersionOfOpenShift(t *testing.T) {
	for in, want := range map[string]podstatus.Version{
		"4.9.0-0.nightly-2021-09-10-170926": {Major: 1, Minor: 22},
		"4.18.12":                           {Major: 1, Minor: 31},
		"3.11.0":                            {},
		"":                                  {},
	} {
		if got := kubeVersionOfOpenShift(in); got != want {
			t.Errorf("kubeVersionOfOpenShift(%q) = %v, want %v", in, got, want)
		}
	}
}
