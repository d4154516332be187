package rules

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"sort"
	"strings"

	"github.com/mgtriage/mgtriage/parser/model"
)

// keyProblem is one problem of a key of a rule file, found while decoding:
// Key is its path as fieldLines writes it ("severity", "match.cause",
// "match.params.reasons"); Msg says what is wrong in YAML words.
type keyProblem struct {
	Key string
	Msg string
	// Meant is the path of the known key an unknown Key is close to: its own
	// checks (a missing severity) would only repeat this problem.
	Meant string
}

// decodeKeys decodes the JSON form of one YAML mapping (raw) into the struct
// that into points at, key by key, and returns every problem instead of the
// first: keys the struct does not have (with the nearest known key when one
// is close) and values of the wrong kind. Keys that decode are set; prefix is
// the path of the mapping ("" for a rule, "match" for its match). A nested
// struct value is decoded the same way, so its problems are listed too.
func decodeKeys(raw json.RawMessage, into any, prefix, what string) []keyProblem {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		return []keyProblem{{Key: prefix, Msg: fmt.Sprintf("%s is %s; it must be a mapping of keys (key: value)", orWhat(prefix, what), yamlKindOf(raw))}}
	}
	v := reflect.ValueOf(into).Elem()
	fields := jsonFields(v.Type())
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var out []keyProblem
	for _, k := range keys {
		path := joinKey(prefix, k)
		idx, ok := fields[k]
		if !ok {
			msg := fmt.Sprintf("unknown key %q in %s", k, what)
			meant := ""
			if near := nearestKey(k, fields); near != "" {
				msg += fmt.Sprintf(" (did you mean %q?)", near)
				if _, present := m[near]; !present {
					meant = joinKey(prefix, near)
				}
			}
			msg += "; its keys are " + strings.Join(sortedKeys(fields), ", ")
			out = append(out, keyProblem{Key: path, Msg: msg, Meant: meant})
			continue
		}
		f := v.FieldByIndex(idx)
		if f.Kind() == reflect.Struct && f.Type() != reflect.TypeOf(json.RawMessage{}) && !f.Addr().Type().Implements(reflect.TypeOf((*json.Unmarshaler)(nil)).Elem()) {
			out = append(out, decodeKeys(m[k], f.Addr().Interface(), path, "the "+path+" mapping")...)
			continue
		}
		if err := json.Unmarshal(m[k], f.Addr().Interface()); err != nil {
			out = append(out, keyProblem{Key: path, Msg: valueProblem(path, m[k], f.Type(), err)})
		}
	}
	return out
}

func orWhat(prefix, what string) string {
	if prefix == "" {
		return what
	}
	return prefix
}

func joinKey(prefix, k string) string {
	if prefix == "" {
		return k
	}
	return prefix + "." + k
}

// valueProblem words a decoding error of the value of key: which kind of
// YAML value it holds and which kind belongs there.
func valueProblem(key string, raw json.RawMessage, t reflect.Type, err error) string {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		where := key
		if te.Field != "" {
			where = key + "." + te.Field
		}
		if te.Type != nil && te.Type != t && te.Field == "" && (t.Kind() == reflect.Slice || t.Kind() == reflect.Map) {
			return fmt.Sprintf("%s holds %s where %s belongs (an item of %s)", where, yamlKindWord(te.Value), yamlTypeWord(te.Type), yamlTypeWord(t))
		}
		return fmt.Sprintf("%s holds %s where %s belongs", where, yamlKindWord(te.Value), yamlTypeWord(te.Type))
	}
	return fmt.Sprintf("%s: %s is not %s", key, yamlKindOf(raw), yamlTypeWord(t))
}

// yamlKindOf names the kind of a JSON value in YAML words.
func yamlKindOf(raw json.RawMessage) string {
	s := strings.TrimSpace(string(raw))
	switch {
	case s == "" || s == "null":
		return "empty"
	case s[0] == '{':
		return "a mapping"
	case s[0] == '[':
		return "a list"
	case s[0] == '"':
		return "a string"
	case s == "true" || s == "false":
		return "true or false"
	}
	return "a number"
}

func yamlKindWord(v string) string {
	switch {
	case v == "string":
		return "a string"
	case v == "bool":
		return "true or false"
	case v == "array":
		return "a list"
	case v == "object":
		return "a mapping"
	case strings.HasPrefix(v, "number"):
		if n := strings.TrimSpace(strings.TrimPrefix(v, "number")); n != "" {
			return "the number " + n
		}
		return "a number"
	}
	return v
}

func yamlTypeWord(t reflect.Type) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == reflect.TypeOf(json.RawMessage{}) {
		return "a value"
	}
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Slice, reflect.Array:
		return "a list of " + strings.TrimPrefix(strings.TrimPrefix(yamlTypeWord(t.Elem()), "a "), "an ") + "s"
	case reflect.Struct, reflect.Map:
		return "a mapping"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64, reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "a whole number"
	case reflect.Float32, reflect.Float64:
		return "a number"
	}
	return "another kind of value"
}

// jsonFields maps the JSON names of t's exported fields (embedded structs
// flattened, as encoding/json does) to their index paths.
func jsonFields(t reflect.Type) map[string][]int {
	out := map[string][]int{}
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		name, _, _ := strings.Cut(tag, ",")
		if name == "-" || (!f.IsExported() && !f.Anonymous) {
			continue
		}
		if f.Anonymous && name == "" && f.Type.Kind() == reflect.Struct {
			for k, idx := range jsonFields(f.Type) {
				if _, ok := out[k]; !ok {
					out[k] = append([]int{i}, idx...)
				}
			}
			continue
		}
		if !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		out[name] = []int{i}
	}
	return out
}

func sortedKeys(m map[string][]int) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// nearestKey is the known key closest to k (case-insensitive edit distance at
// most 2, or the same key in another case), "" when none is.
func nearestKey(k string, known map[string][]int) string {
	best, bestD := "", 3
	for _, c := range sortedKeys(known) {
		if strings.EqualFold(c, k) {
			return c
		}
		if d := model.EditDistance(strings.ToLower(k), strings.ToLower(c), 64); d < bestD {
			best, bestD = c, d
		}
	}
	return best
}

// yamlSyntaxText words an error of converting a rule file's YAML: its line
// and the parser's reason without the converter's prefixes.
func yamlSyntaxText(err error) string {
	msg := err.Error()
	msg = strings.TrimPrefix(msg, "error converting YAML to JSON: ")
	msg = strings.TrimPrefix(msg, "yaml: ")
	return "not valid YAML: " + msg
}

// paramProblems lists every unknown key and value of the wrong kind in the
// params of a known matcher (newMatcher stops at the first).
func paramProblems(m Match) []keyProblem {
	kind, ok := lookupMatcher(m.Matcher)
	if !ok || len(m.Params) == 0 || string(m.Params) == "null" {
		return nil
	}
	return decodeKeys(m.Params, kind.new(), "match.params", "the params of matcher "+m.Matcher)
}
