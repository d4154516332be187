package parser

import (
	"encoding/base64"
	"net/url"
	"regexp"
	"strconv"
	"strings"

	"github.com/mgtriage/mgtriage/parser/openshift"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// machineConfigFiles is the part of a MachineConfig decodeMachineConfig
// reads: the paths and contents of its Ignition files.
type machineConfigFiles struct {
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              struct {
		Config struct {
			Storage struct {
				Files []struct {
					Path     string `json:"path"`
					Contents struct {
						Source string `json:"source"`
					} `json:"contents"`
				} `json:"files"`
			} `json:"storage"`
		} `json:"config"`
	} `json:"spec"`
}

// maxCrioFile bounds the data URL of one CRI-O configuration file that
// decodeMachineConfig decodes (crio.conf is a few KiB).
const maxCrioFile = 256 << 10

var pidsLimitRe = regexp.MustCompile(`(?m)^[ \t]*pids_limit[ \t]*=[ \t]*(-?\d{1,12})`)

// decodeMachineConfig keeps of a MachineConfig the pids_limit its CRI-O
// configuration sets (the last file under /etc/crio/ that sets one wins, as
// CRI-O reads crio.conf and then crio.conf.d in order) and drops every
// file's contents.
var decodeMachineConfig = decodeAsInto(func(t *machineConfigFiles) any {
	mc := &openshift.MachineConfig{ObjectMeta: t.ObjectMeta}
	for _, f := range t.Spec.Config.Storage.Files {
		if !strings.HasPrefix(f.Path, "/etc/crio/") {
			continue
		}
		text, ok := dataURLText(f.Contents.Source, maxCrioFile)
		if !ok {
			continue
		}
		if m := pidsLimitRe.FindAllStringSubmatch(text, -1); m != nil {
			if n, err := strconv.ParseInt(m[len(m)-1][1], 10, 64); err == nil {
				mc.CrioPidsLimit, mc.CrioFile = &n, f.Path
			}
		}
	}
	return mc
})

// dataURLText decodes an Ignition file's data URL ("data:,<percent-encoded>"
// or "data:[<type>];base64,<base64>"), when it is no longer than max.
func dataURLText(src string, max int) (string, bool) {
	rest, ok := strings.CutPrefix(src, "data:")
	if !ok || len(rest) > max {
		return "", false
	}
	meta, data, ok := strings.Cut(rest, ",")
	if !ok {
		return "", false
	}
	if strings.HasSuffix(meta, ";base64") {
		b, err := base64.StdEncoding.DecodeString(data)
		if err != nil {
			return "", false
		}
		return string(b), true
	}
	text, err := url.PathUnescape(data)
	if err != nil {
		return "", false
	}
	return text, true
}
