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

func TestIDSignature(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"", ""},
		{"back-off 2m40s restarting failed container", "back-off #m#s restarting failed container"},
		{"sandbox k8s_web-6d7e8f9a0-cr8t1_shop_2f948e50-db21-4e53-82c5-720161162c71_0(d1e4b1f475d446bce85ba64efc2a7d4c1d2959f993a75b2b9cbf26452456923c): failed",
			"sandbox k#s_web-#-cr#t#_shop_#-#-#-#-#_#(#): failed"},
		{"deadbeef face cafe", "deadbeef face cafe"},
		{"E1120 08:52:17.944840 1234 kubelet.go:99] x", "# #:#:#.# # kubelet.go:#] x"},
		{"\xff7\x00", "\xff#\x00"},
	} {
		if got := IDSignature(c.in); got != c.want {
			t.Errorf("IDSignature(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	a := IDSignature("Failed to create sandbox 063a264d002928bce74b64df0412ed0eb7b6fef16f6a6a0c9af87f3adb6328b7 at 08:52:17")
	b := IDSignature("Failed to create sandbox 80a4fce86670b4e464ac33966078899546575b4fb6b2fcfb8e304aac0dbb7533 at 08:54:39")
	if a != b {
		t.Errorf("two lines that differ only in the sandbox ID and time: %q != %q", a, b)
	}
}
