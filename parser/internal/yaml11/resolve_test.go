package yaml11

import (
	"testing"

	"sigs.k8s.io/yaml"
)

// library is what sigs.k8s.io/yaml makes of "v: <s>": the value, or ok=false
// when it rejects the document.
func library(s string) (v any, ok bool) {
	var m map[string]any
	if err := yaml.Unmarshal([]byte("v: "+s+"\n"), &m); err != nil {
		return nil, false
	}
	v, ok = m["v"]
	return v, ok
}

func TestResolve(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want Kind
	}{
		{"", Null}, {"~", Null}, {"null", Null}, {"NULL", Null},
		{"true", Bool}, {"false", Bool}, {"True", Other}, {"yes", Other}, {"off", Other}, {"<<", Other},
		{"0", Int}, {"-7", Int}, {"123456789012345678", Int}, {"1234567890123456789", Other},
		{"010", Other}, {"0x1f", Other}, {"0o17", Other}, {"-0", Other}, {"+1", Other},
		{"0_", Other}, {"1_000", Other}, {"_1", String}, {"1_0.5", Other},
		{"1.5", Other}, {".5", Other}, {"1e3", Other}, {".inf", Other}, {"-.Inf", Other}, {".NaN", Other},
		{"0b101", Other}, {"-0b1", Other}, {"0b-1", Other}, {"0b", String},
		{"0b2e5c4a-1d3f-4e5a-8b7c-9d0e1f2a3b4c", String}, {"0bf7", String},
		{"2001-12-14", String}, {"1.2.3", String}, {"v1", String}, {"-foo", String}, {"web-0", String},
		{"10.128.0.5", String}, {"1e-5", Other}, {"1E+5", Other}, {"-1_0", Other}, {"1_000-2", String},
		{"5e0c1a2b-7f3d-4c1e-9a2b-1c3d5e7f9a0b", String}, {"0x1p-2", String}, {"1.5e3", Other}, {"+.5", Other},
	} {
		t.Run(tt.in, func(t *testing.T) {
			if got := Resolve([]byte(tt.in)); got != tt.want {
				t.Errorf("Resolve(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

// FuzzResolve checks Resolve against the library on scalars made of the
// characters numbers, words and names use: what Resolve calls a string the
// library reads as that same string, and what it calls an integer or a
// boolean the library reads as one.
func FuzzResolve(f *testing.F) {
	for _, s := range []string{"0_", "1_000", "0b101", "0b-1", "-0b1", "1e3", ".inf", "0x_1f", "2001-12-14", "web-0", "+.5", "0o7"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, c := range []byte(s) {
			if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '.' || c == '_' || c == '+' || c == '-' || c == '~') {
				return
			}
		}
		if len(s) > 0 && s[0] == '-' && (len(s) == 1 || s[1] == '-') {
			return // a sequence entry or a document marker, not a scalar
		}
		v, ok := library(s)
		if !ok {
			return
		}
		switch k := Resolve([]byte(s)); k {
		case String:
			if got, isStr := v.(string); !isStr || got != s {
				t.Fatalf("Resolve(%q) = string, library %T %v", s, v, v)
			}
		case Null:
			if v != nil {
				t.Fatalf("Resolve(%q) = null, library %T %v", s, v, v)
			}
		case Bool:
			if _, isBool := v.(bool); !isBool {
				t.Fatalf("Resolve(%q) = bool, library %T %v", s, v, v)
			}
		case Int:
			if _, isNum := v.(float64); !isNum {
				t.Fatalf("Resolve(%q) = int, library %T %v", s, v, v)
			}
		}
	})
}
