package report

import (
	"bytes"
	"strings"
	"testing"
)

// TestRedactArchiveFolder: the folder inside an archive (must-gather.local.<n>,
// inspect.local.<n>, a sosreport's folder) is redacted wherever it stands as a
// path segment — gather roots, layouts, gather health, coverage — in every
// format; a must-gather's image folder and a namespace folder's namespace stay.
func TestRedactArchiveFolder(t *testing.T) {
	const inner = "must-gather.local.5049263173451366137"
	const image = "quay-io-openshift-release-dev-ocp-v4-0-art-dev-sha256-b38e71bbf42875b89f00d9e667acc486723054057e3b7fc260c5a2c88cafd2d0"
	r := loadReport(t)
	r.Gather.Path = "/cases/04242/upload.tar.gz"
	r.Gather.Roots = []string{inner + "/" + image + "/", inner + "/inspect.local.889/", "case-7/namespaces/shop/"}
	r.Gather.Layouts = []Layout{
		{Root: r.Gather.Roots[0], Kind: "must-gather", Image: "openshift/must-gather 4.18.0"},
		{Root: r.Gather.Roots[1], Kind: "inspect"},
		{Root: r.Gather.Roots[2], Kind: "namespace folder"},
	}
	r.Gather.Health.NamespacesWithoutPods = []string{inner + "/" + image + "/namespaces/shop"}
	r.Gather.Coverage.Unplaced = append(r.Gather.Coverage.Unplaced, FileCount{What: inner + "/(files beside the gather root)", Files: 1})
	red, mapping := Redact(r)
	for _, k := range []string{inner, "inspect.local.889", "case-7"} {
		if !strings.HasPrefix(mapping[k], "folder-") {
			t.Errorf("mapping[%q] = %q, want a folder placeholder", k, mapping[k])
		}
	}
	for _, k := range []string{image, "shop", "namespaces"} {
		if _, ok := mapping[k]; ok {
			t.Errorf("%q redacted: a must-gather's image folder, a namespace and the namespaces folder stay", k)
		}
	}
	for name, w := range map[string]Writer{"md": MarkdownWriter(MarkdownOptions{}), "html": WriteHTML, "json": WriteJSON, "txt": TerminalWriter(TerminalOptions{})} {
		var b bytes.Buffer
		if err := w(&b, red); err != nil {
			t.Fatal(err)
		}
		for _, bad := range []string{inner, "inspect.local.889", "case-7"} {
			if strings.Contains(b.String(), bad) {
				t.Errorf("%s holds the archive's folder %q after Redact", name, bad)
			}
		}
		if name != "txt" && !strings.Contains(b.String(), mapping[inner]+"/"+image+"/") {
			t.Errorf("%s does not show the layout's root as %s/%s/", name, mapping[inner], image)
		}
	}
}

// TestRedactInputWordStays: an input given as a bare folder name ("new", as
// in `analyze diff old new`) is replaced where it is a path's folder or the
// whole string, not where the same word is prose.
func TestRedactInputWordStays(t *testing.T) {
	rd := newRedactor()
	rd.learnCluster(Gather{Path: "new", Roots: []string{"must-gather.local.12/quay-io-x/"}})
	for in, want := range map[string]string{
		"new":                                  "input-1",
		"open new/namespaces/a/pods.yaml: EOF": "open input-1/namespaces/a/pods.yaml: EOF",
		"Created new replica set":              "Created new replica set",
		"scaled to new":                        "scaled to new",
		"see x/new":                            "see x/input-1",
		"must-gather.local.12":                 "folder-1",
		"must-gather.local.12/(files beside the gather root)": "folder-1/(files beside the gather root)",
		"tar of must-gather.local.12 done":                    "tar of must-gather.local.12 done",
		"must-gather.local.123/x":                             "must-gather.local.123/x",
	} {
		if got := rd.redactString(in); got != want {
			t.Errorf("redactString(%q) = %q, want %q", in, got, want)
		}
	}
}
