package report

import (
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mgtriage/mgtriage/rules"
)

// jsonPaths lists every field of t as it appears in report.json: "gather.path",
// "pods[].containers[].lastState.exitCode", "summary.bySeverity.*".
func jsonPaths(t reflect.Type, prefix string) []string {
	var out []string
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Slice:
		return jsonPaths(t.Elem(), prefix+"[]")
	case reflect.Map:
		return jsonPaths(t.Elem(), prefix+".*")
	case reflect.Struct:
		if t == reflect.TypeOf(time.Time{}) {
			return nil
		}
	default:
		return nil
	}
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" || !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		p := name
		if prefix != "" {
			p = prefix + "." + name
		}
		out = append(out, p)
		out = append(out, jsonPaths(f.Type, p)...)
	}
	return out
}

var docPath = regexp.MustCompile("^\\| `([^`]+)` \\|")

// TestSchemaDocumented fails when a field of Report is not documented in
// docs/report-schema.md, or the document names a field Report does not have.
// Each field is a table row that starts with | `path` |.
func TestSchemaDocumented(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "docs", "report-schema.md"))
	if err != nil {
		t.Fatal(err)
	}
	documented := map[string]bool{}
	for _, line := range strings.Split(string(doc), "\n") {
		if m := docPath.FindStringSubmatch(line); m != nil {
			documented[m[1]] = true
		}
	}
	fields := map[string]bool{}
	for _, p := range jsonPaths(reflect.TypeOf(Report{}), "") {
		fields[p] = true
		if !documented[p] {
			t.Errorf("report.json field %s is not documented in docs/report-schema.md (add a row | `%s` | type | meaning |)", p, p)
		}
	}
	for p := range documented {
		if !fields[p] {
			t.Errorf("docs/report-schema.md documents %s, which Report does not have", p)
		}
	}
	if !strings.Contains(string(doc), "`schemaVersion` is "+strconv.Itoa(SchemaVersion)) {
		t.Errorf("docs/report-schema.md does not say the current schemaVersion (%d)", SchemaVersion)
	}
}

// TestEvidenceKindsDocumented: the kinds docs/report-schema.md lists for
// findings[].evidence[].kind (each in backticks in the row's meaning) are
// exactly rules.EvidenceKinds, the kinds a rule or join may emit.
func TestEvidenceKindsDocumented(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "docs", "report-schema.md"))
	if err != nil {
		t.Fatal(err)
	}
	const row = "| `findings[].evidence[].kind` | string | "
	documented := map[string]bool{}
	for _, line := range strings.Split(string(doc), "\n") {
		meaning, ok := strings.CutPrefix(line, row)
		if !ok {
			continue
		}
		// The enum values are the backticked words outside parentheses.
		depth := 0
		var outside strings.Builder
		for _, r := range meaning {
			switch r {
			case '(':
				depth++
			case ')':
				depth--
			default:
				if depth == 0 {
					outside.WriteRune(r)
				}
			}
		}
		for _, m := range regexp.MustCompile("`([^`]+)`").FindAllStringSubmatch(outside.String(), -1) {
			documented[m[1]] = true
		}
	}
	if len(documented) == 0 {
		t.Fatalf("docs/report-schema.md has no row %q", row)
	}
	kinds := map[string]bool{}
	for _, k := range rules.EvidenceKinds() {
		kinds[string(k)] = true
		if !documented[string(k)] {
			t.Errorf("evidence kind %q (rules.EvidenceKinds) is not listed in docs/report-schema.md's findings[].evidence[].kind", k)
		}
	}
	for k := range documented {
		if !kinds[k] {
			t.Errorf("docs/report-schema.md lists evidence kind %q, which rules.EvidenceKinds lacks", k)
		}
	}
}
