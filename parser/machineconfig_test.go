package parser

import (
	"testing"

	"github.com/mgtriage/mgtriage/parser/openshift"
)

// TestDecodeMachineConfig: a MachineConfig keeps the pids_limit its CRI-O
// configuration sets, from a percent-encoded or a base64 data URL, and no
// file contents; files outside /etc/crio/ are not read.
func TestDecodeMachineConfig(t *testing.T) {
	for _, tc := range []struct {
		name, doc string
		want      int64 // -1: none
		file      string
	}{
		{"percent-encoded crio.conf", `apiVersion: machineconfiguration.openshift.io/v1
kind: MachineConfig
metadata: {name: 01-worker-container-runtime}
spec:
  config:
    storage:
      files:
      - contents: {source: "data:,%5Bcrio.runtime%5D%0Apids_limit%20%3D%201024%0A"}
        path: /etc/crio/crio.conf
      - contents: {source: "data:,pids_limit%20%3D%2016"}
        path: /etc/containers/other.conf
`, 1024, "/etc/crio/crio.conf"},
		{"base64 drop-in", `apiVersion: machineconfiguration.openshift.io/v1
kind: MachineConfig
metadata: {name: 99-worker-pids}
spec:
  config:
    storage:
      files:
      - contents: {source: "data:text/plain;charset=utf-8;base64,W2NyaW8ucnVudGltZV0KcGlkc19saW1pdCA9IDIwNDgK"}
        path: /etc/crio/crio.conf.d/01-pids
`, 2048, "/etc/crio/crio.conf.d/01-pids"},
		{"crio.conf without pids_limit", `apiVersion: machineconfiguration.openshift.io/v1
kind: MachineConfig
metadata: {name: 01-worker-container-runtime}
spec:
  config:
    storage:
      files:
      - contents: {source: "data:,%5Bcrio%5D%0Ainternal_wipe%20%3D%20true%0A"}
        path: /etc/crio/crio.conf.d/00-default
`, -1, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o, err := decodeMachineConfig([]byte(tc.doc), loadMem{})
			if err != nil {
				t.Fatal(err)
			}
			mc := o.(*openshift.MachineConfig)
			switch {
			case tc.want < 0 && mc.CrioPidsLimit != nil:
				t.Errorf("pids_limit %d, want none", *mc.CrioPidsLimit)
			case tc.want >= 0 && (mc.CrioPidsLimit == nil || *mc.CrioPidsLimit != tc.want || mc.CrioFile != tc.file):
				t.Errorf("got %v %q, want %d %q", mc.CrioPidsLimit, mc.CrioFile, tc.want, tc.file)
			}
		})
	}
}
