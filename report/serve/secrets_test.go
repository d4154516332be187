package serve

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestMaskSecretObjects: the lines of Secret and ConfigMap objects, and
// only theirs, are masked, in the shapes kubectl and oc write.
func TestMaskSecretObjects(t *testing.T) {
	const M = MaskedLine
	for _, tc := range []struct {
		name string
		in   []string
		want []string
	}{
		{"yaml list of mixed kinds",
			[]string{"items:", "- apiVersion: v1", "  kind: Pod", "  metadata:", "    name: p", "- apiVersion: v1", "  data:", "    k: V", "", "  kind: Secret", "  metadata:", "    name: s", "- kind: ConfigMap", "  data:", "    k: V", "- kind: Pod", "  metadata:", "    name: q", "kind: List"},
			[]string{"items:", "- apiVersion: v1", "  kind: Pod", "  metadata:", "    name: p", M, M, M, "", M, M, M, M, M, M, "- kind: Pod", "  metadata:", "    name: q", "kind: List"}},
		{"one object",
			[]string{"apiVersion: v1", "data:", "  k: V", "kind: ConfigMap", "---", "kind: Pod"},
			[]string{M, M, M, M, "---", "kind: Pod"}},
		{"pretty json",
			[]string{"{", `  "items": [`, "    {", `      "data": {`, `        "k": "V"`, "      },", `      "kind": "Secret",`, `      "metadata": {}`, "    },", "    {", `      "kind": "Pod"`, "    }", "  ]", "}"},
			[]string{"{", `  "items": [`, "    {", M, M, M, M, M, "    },", "    {", `      "kind": "Pod"`, "    }", "  ]", "}"}},
		{"one-line json and flow",
			[]string{`{"items":[{"kind":"ConfigMap","data":{"k":"V"}}]}`, "- {kind: Secret, data: {k: V}}", "- {kind: Pod}"},
			[]string{M, M, "- {kind: Pod}"}},
		{"other kinds",
			[]string{"kind: SecretProviderClass", "kind: SealedSecret", "secretKeyRef:", "  name: Secret"},
			[]string{"kind: SecretProviderClass", "kind: SealedSecret", "secretKeyRef:", "  name: Secret"}},
	} {
		got := append([]string(nil), tc.in...)
		maskSecretObjects([]byte(strings.Join(tc.in, "\n")), got)
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tc.name, diff)
		}
	}
}
