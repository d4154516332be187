package report

import (
	"fmt"
	"strings"
)

// StreamFault is one stream of the input that was not whole (parser's
// model.StreamFault): Kind "damaged" (a checksum or footer mismatch, data
// that cannot be decoded, or data after the stream's end) or "truncated"
// (it ends early).
type StreamFault struct {
	Kind string `json:"kind" redact:"keep"`
	// Stream is the path, inside the input, of the nested archive or zip
	// member; "" for the input file itself.
	Stream string `json:"stream,omitempty"`
	// Format is "gz", "zst", "xz", "bz2", "tar" or "zip".
	Format string `json:"format" redact:"keep"`
	// Error is the decompressor's or archive reader's own words.
	Error string `json:"error"`
	// Stopped: reading stopped at this fault (incomplete says so too).
	Stopped bool `json:"stopped,omitempty"`
}

// maxNoticeFaults bounds the faults the notice names; report.json has
// them all.
const maxNoticeFaults = 3

// InputNotice is what the first line on stdout and the top of every report
// say about an input that was not read whole or not read right: label is
// "Input incomplete", "Input damaged" or "Input damaged and incomplete"
// (empty when every stream was read to its end and checked), text says
// why (gather.incomplete, then each fault it does not already say, at most
// maxNoticeFaults), and tail what it means for the findings.
func InputNotice(g Gather) (label, text, tail string) {
	damaged, incomplete := false, g.Incomplete != ""
	var parts []string
	if g.Incomplete != "" {
		parts = append(parts, g.Incomplete)
	}
	said := 0
	for _, f := range g.Faults {
		switch f.Kind {
		case "damaged":
			damaged = true
		case "truncated":
			incomplete = true
		}
		if f.Stopped && g.Incomplete != "" {
			continue // gather.incomplete says it
		}
		if said == maxNoticeFaults {
			parts = append(parts, fmt.Sprintf("and %d more (report.json lists them)", len(g.Faults)-said))
			break
		}
		parts = append(parts, faultSentence(f))
		said++
	}
	var tails []string
	switch {
	case damaged && incomplete:
		label = "Input damaged and incomplete"
	case damaged:
		label = "Input damaged"
	case incomplete:
		label = "Input incomplete"
	default:
		return "", "", ""
	}
	if incomplete {
		tails = append(tails, "Findings and counts cover only what was read.")
	}
	if damaged {
		tails = append(tails, "Bytes changed after the upload was written: findings may rest on wrong values; ask for the upload again.")
	}
	return label, strings.Join(parts, "; "), strings.Join(tails, " ")
}

// faultSentence says one fault in words.
func faultSentence(f StreamFault) string {
	where := "the input's " + formatWord(f.Format) + " stream"
	if f.Format == "zip" && f.Stream == "" {
		where = "the input's zip"
	}
	if f.Stream != "" {
		where = formatWord(f.Format) + " stream " + f.Stream
		if f.Format == "zip" {
			where = f.Stream // a nested zip, or a member of a zip (the error says "zip: …")
		}
	}
	if f.Kind == "truncated" {
		return where + " ends early (" + f.Error + ")"
	}
	return where + " is damaged (" + f.Error + ")"
}

func formatWord(f string) string {
	switch f {
	case "gz":
		return "gzip"
	case "zst":
		return "zstd"
	case "bz2":
		return "bzip2"
	case "":
		return "archive"
	}
	return f
}
