package serve

import (
	"bytes"
	"regexp"
	"strings"
)

// MaskedLine replaces, in every quoted file, each line of a Secret or
// ConfigMap object, wherever the gather holds one (a List of mixed kinds,
// a JSON list, a file whose path does not name its kind): their values
// never leave this server.
const MaskedLine = "[a line of a Secret or ConfigMap: never shown]"

// secretKindRe finds the kind of a Secret or ConfigMap (or a list of them)
// as YAML ("kind: Secret"), a YAML flow mapping or JSON ("kind":"Secret").
var secretKindRe = regexp.MustCompile(`(?:^|[\s{,])"?kind"?\s*:\s*["']?(?:Secret|ConfigMap)(?:List)?["']?\s*(?:[,}]|$)`)

// maskSecretObjects replaces with MaskedLine, in place, the lines of every
// object of lines whose kind is Secret or ConfigMap: the run of lines
// around its kind line indented at least as deep as the kind key (the
// object's own keys, as kubectl and oc write YAML and JSON), with the dash
// line that opens it as a list item; for a kind inside a one-line or flow
// object, that line. It stops at a document separator ("---"). A mapping
// that only refers to such an object (an event's involvedObject) is masked
// too: over-masking quotes less, never a value.
func maskSecretObjects(data []byte, lines []string) {
	if !bytes.Contains(data, []byte("Secret")) && !bytes.Contains(data, []byte("ConfigMap")) {
		return
	}
	for i := range lines {
		l := lines[i]
		if l == MaskedLine || !strings.Contains(l, "kind") {
			continue
		}
		loc := secretKindRe.FindStringIndex(l)
		if loc == nil {
			continue
		}
		col := loc[0] + strings.Index(l[loc[0]:loc[1]], "kind")
		if col > 0 && l[col-1] == '"' {
			col--
		}
		lines[i] = MaskedLine
		if strings.TrimLeft(l[:col], " -") != "" {
			continue // a one-line or flow object: its line only
		}
		// Up to the object's first key, unless the kind line opens the item.
		for j := i - 1; j >= 0 && !strings.HasPrefix(strings.TrimLeft(l, " "), "-"); j-- {
			d, ind, ok := lineIndent(lines[j])
			if !ok {
				break
			}
			if ind < col {
				if d && ind+2 == col {
					lines[j] = MaskedLine
				}
				break
			}
			mask(lines, j)
		}
		for j := i + 1; j < len(lines); j++ {
			_, ind, ok := lineIndent(lines[j])
			if !ok || ind < col {
				break
			}
			mask(lines, j)
		}
	}
}

// lineIndent returns the indentation of a line's content (after a list
// item's "- ", dash true), a blank line's taken as deep as any; ok is false
// for a document separator.
func lineIndent(l string) (dash bool, ind int, ok bool) {
	if l == "---" || l == "..." || strings.HasPrefix(l, "--- ") {
		return false, 0, false
	}
	if l == MaskedLine || strings.TrimSpace(l) == "" {
		return false, 1 << 30, true
	}
	t := strings.TrimLeft(l, " ")
	ind = len(l) - len(t)
	if strings.HasPrefix(t, "- ") || t == "-" {
		return true, ind, true
	}
	return false, ind, true
}

// mask replaces line j unless it is blank.
func mask(lines []string, j int) {
	if strings.TrimSpace(lines[j]) != "" {
		lines[j] = MaskedLine
	}
}
