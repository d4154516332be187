package nodelog

import "testing"

func TestSignature(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"", ""},
		{"back-off 2m40s restarting failed container", "back-off #m#s restarting failed container"},
		{"pod web-7d9f-12 and web-7d9f-345", "pod web-#d#f-# and web-#d#f-#"},
		{"10.0.0.1:8080", "#.#.#.#:#"},
		{"no digits", "no digits"},
		{"\xff7\x00", "\xff#\x00"},
	} {
		if got := Signature(c.in); got != c.want {
			t.Errorf("Signature(%q) = %q, want %q", c.in, got, c.want)
		}
		if got := string(AppendSignature([]byte("9 "), c.in)); got != "9 "+c.want {
			t.Errorf("AppendSignature(%q, %q) = %q, want %q", "9 ", c.in, got, "9 "+c.want)
		}
	}
}
