package parser

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mgtriage/mgtriage/parser/internal/jsonpos"
	"github.com/mgtriage/mgtriage/parser/model"
)

// fieldPodsJSON is fieldPods as kubectl get -o json writes it.
const fieldPodsJSON = `{
    "apiVersion": "v1",
    "items": [
        {
            "apiVersion": "v1",
            "kind": "Pod",
            "metadata": {
                "name": "api"
            },
            "status": {
                "conditions": [
                    {
                        "lastTransitionTime": "2026-11-20T09:00:00Z",
                        "status": "True",
                        "type": "PodScheduled"
                    },
                    {
                        "message": "containers with unready status: [api]",
                        "reason": "ContainersNotReady",
                        "status": "False",
                        "type": "Ready"
                    }
                ],
                "containerStatuses": [
                    {
                        "image": "api:1",
                        "lastState": {
                            "terminated": {
                                "exitCode": 1,
                                "reason": "Error"
                            }
                        },
                        "name": "api",
                        "ready": false,
                        "restartCount": 5,
                        "state": {
                            "waiting": {
                                "message": "back-off 5m0s restarting failed container=api",
                                "reason": "CrashLoopBackOff"
                            }
                        }
                    },
                    {
                        "image": "proxy:1",
                        "name": "proxy",
                        "restartCount": 0,
                        "state": {
                            "running": {
                                "startedAt": "2026-11-20T09:00:00Z"
                            }
                        }
                    }
                ],
                "phase": "Running"
            }
        },
        {
            "apiVersion": "v1",
            "kind": "Pod",
            "metadata": {
                "name": "web"
            },
            "status": {
                "phase": "Pending"
            }
        }
    ],
    "kind": "List"
}
`

func TestScanJSONFieldLines(t *testing.T) {
	data := []byte(fieldPodsJSON)
	lines := lineStarts(data)
	if got := jsonItemLines(data); !cmp.Equal(got, []int{4, 57}) {
		t.Errorf("jsonItemLines = %v, want [4 57]", got)
	}
	got := scanFieldLines(data, lines, 4)
	want := model.FieldLines{
		"status": 10, "status.conditions": 11,
		"status.conditions[PodScheduled]": 13, "status.conditions[PodScheduled].status": 14, "status.conditions[PodScheduled].type": 15,
		"status.conditions[Ready]": 18, "status.conditions[Ready].message": 18, "status.conditions[Ready].reason": 19,
		"status.conditions[Ready].status": 20, "status.conditions[Ready].type": 21,
		"status.containerStatuses": 24, "status.containerStatuses[api]": 26,
		"status.containerStatuses[api].lastState": 27, "status.containerStatuses[api].lastState.terminated": 28,
		"status.containerStatuses[api].lastState.terminated.exitCode": 29, "status.containerStatuses[api].lastState.terminated.reason": 30,
		"status.containerStatuses[api].name": 33, "status.containerStatuses[api].ready": 34, "status.containerStatuses[api].restartCount": 35,
		"status.containerStatuses[api].state": 36, "status.containerStatuses[api].state.waiting": 37,
		"status.containerStatuses[api].state.waiting.message": 38, "status.containerStatuses[api].state.waiting.reason": 39,
		"status.containerStatuses[proxy]": 44, "status.containerStatuses[proxy].name": 45, "status.containerStatuses[proxy].restartCount": 46,
		"status.containerStatuses[proxy].state": 47, "status.containerStatuses[proxy].state.running": 48, "status.phase": 54,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("field lines (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(model.FieldLines{"status": 63, "status.phase": 64}, scanFieldLines(data, lines, 57)); diff != "" {
		t.Errorf("second item (-want +got):\n%s", diff)
	}
	if n := keyLine(data, lines, 57, "kind"); n != 59 {
		t.Errorf("keyLine(kind) of the second item = %d, want 59", n)
	}
	// One line: every field is on line 1.
	compact := []byte(`{"status":{"phase":"Pending","conditions":[{"type":"PodScheduled","message":"0/3 nodes"}]}}`)
	if diff := cmp.Diff(model.FieldLines{"status": 1, "status.phase": 1, "status.conditions": 1, "status.conditions[PodScheduled]": 1,
		"status.conditions[PodScheduled].type": 1, "status.conditions[PodScheduled].message": 1}, scanFieldLines(compact, lineStarts(compact), 1)); diff != "" {
		t.Errorf("one-line object (-want +got):\n%s", diff)
	}
}

// FuzzWalkJSON feeds hostile bytes to the position-aware JSON walk behind
// JSON field lines, item lines and key lines: it must end, never panic, and
// report only offsets inside the input.
func FuzzWalkJSON(f *testing.F) {
	f.Add([]byte(fieldPodsJSON), 4)
	f.Add([]byte(`{"items":[{"a":1},[],"x",{"b":{"c":[1,2,{"d":"\\""}]}}]}`), 1)
	f.Add([]byte(`{"a":`), 1)
	f.Add([]byte(`[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[`), 1)
	f.Fuzz(func(t *testing.T, data []byte, start int) {
		lines := lineStarts(data)
		jsonpos.Walk(data, start, func(ev *jsonpos.Event) bool {
			if ev.Off < 0 || ev.Off >= len(data) {
				t.Fatalf("offset %d outside %d bytes", ev.Off, len(data))
			}
			return true
		})
		for _, n := range jsonItemLines(data) {
			if n < 1 || n > len(lines) {
				t.Fatalf("item line %d outside %d lines", n, len(lines))
			}
		}
		for _, n := range scanJSONFieldLines(data, lines, start) {
			if n < 1 || n > len(lines) {
				t.Fatalf("field line %d outside %d lines", n, len(lines))
			}
		}
		jsonKeyLine(data, lines, start, "message")
	})
}
