package parser

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mgtriage/mgtriage/fixtures/gen/synth"
	"github.com/mgtriage/mgtriage/parser/model"
	"github.com/mholt/archives"
)

// archiveOf writes the folder dir as an archive of the given format into
// t.TempDir() and returns its path.
func archiveOf(t testing.TB, dir, name string, format archives.Archiver) string {
	t.Helper()
	out := filepath.Join(t.TempDir(), name)
	if err := synth.WriteArchive(dir, out, format); err != nil {
		t.Fatal(err)
	}
	return out
}

// gatherRows is what must not change with the container format: every pod's
// columns and stage, every event, and the problems.
func gatherRows(g *model.Gather) []string {
	var rows []string
	for _, p := range g.Pods {
		rows = append(rows, strings.Join([]string{p.Key(), p.Columns.Ready, p.Columns.Status, p.Columns.Restarts, p.Columns.Age, p.Stage.Name,
			strings.TrimPrefix(p.Source.Path, rootOf(p.Source.Path))}, " "))
		for _, l := range p.NodeLog {
			rows = append(rows, "  log "+string(l.Class)+" "+l.Text)
		}
	}
	for _, e := range g.Events {
		rows = append(rows, "event "+e.Object.Reason+" "+e.Object.InvolvedObject.Name)
	}
	for _, pr := range g.Problems {
		i := strings.Index(pr.Path, "namespaces/")
		rows = append(rows, "problem "+pr.Path[max(i, 0):]+" "+pr.Error)
	}
	return rows
}

func TestEveryArchiveFormatReadsTheSample(t *testing.T) {
	folder, err := Load(context.Background(), sampleGather)
	if err != nil {
		t.Fatal(err)
	}
	want := gatherRows(folder)
	tgz := archiveOf(t, sampleGather, "gather.tar.gz", synth.Formats[".tar.gz"])
	// An upload: a zip holding the tar.gz and a notes file.
	uploadDir := filepath.Join(t.TempDir(), "case-01234567")
	os.MkdirAll(uploadDir, 0o755)
	data, _ := os.ReadFile(tgz)
	os.WriteFile(filepath.Join(uploadDir, "must-gather.tar.gz"), data, 0o644)
	os.WriteFile(filepath.Join(uploadDir, "notes.txt"), []byte("customer notes"), 0o644)

	inputs := map[string]string{
		"tar":             archiveOf(t, sampleGather, "gather.tar", synth.Formats[".tar"]),
		"tar.gz":          tgz,
		"tar.xz":          archiveOf(t, sampleGather, "gather.tar.xz", synth.Formats[".tar.xz"]),
		"tar.zst":         archiveOf(t, sampleGather, "gather.tar.zst", synth.Formats[".tar.zst"]),
		"tar.bz2":         archiveOf(t, sampleGather, "gather.tar.bz2", synth.Formats[".tar.bz2"]),
		"zip":             archiveOf(t, sampleGather, "gather.zip", synth.Formats[".zip"]),
		"zip of a tar.gz": archiveOf(t, uploadDir, "upload.zip", synth.Formats[".zip"]),
		"no extension":    archiveOf(t, sampleGather, "download", synth.Formats[".tar.gz"]),
	}
	for name, in := range inputs {
		t.Run(name, func(t *testing.T) {
			g, err := Load(context.Background(), in)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(want, gatherRows(g)); diff != "" {
				t.Errorf("%s differs from the folder (-folder +archive):\n%s", name, diff)
			}
			if len(g.Layouts) != 1 || g.Layouts[0].Kind != model.LayoutMustGather {
				t.Errorf("layouts = %+v", g.Layouts)
			}
		})
	}
}

// writeTree writes files (slash paths → contents) under dir.
func writeTree(t testing.TB, dir string, files map[string]string) {
	t.Helper()
	for name, body := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

const miniPodList = `---
apiVersion: v1
items:
- apiVersion: v1
  kind: Pod
  metadata:
    creationTimestamp: "2026-11-20T08:00:00Z"
    name: NAME
    namespace: NS
    uid: UID
  spec:
    containers:
    - image: app:1
      name: app
  status:
    containerStatuses:
    - image: app:1
      name: app
      ready: true
      restartCount: 0
      state:
        running:
          startedAt: "2026-11-20T08:00:05Z"
    phase: Running
kind: PodList
`

func podList(ns, name, uid string) string {
	return strings.NewReplacer("NAME", name, "NS", ns, "UID", uid).Replace(miniPodList)
}

func TestMultiImageGatherAndInspectFallback(t *testing.T) {
	top := filepath.Join(t.TempDir(), "must-gather.local.1")
	ts := "2026-11-20 09:00:00.0 +0000 UTC m=+0.1\n2026-11-20 09:01:00.0 +0000 UTC m=+60.1\n"
	writeTree(t, top, map[string]string{
		"timestamp": ts,
		// default image and an ODF image gather the same pod (one UID) and one each of their own
		"quay-io-openshift-release-dev-ocp-v4-0-art-dev-sha256-aaa/timestamp":                                  ts,
		"quay-io-openshift-release-dev-ocp-v4-0-art-dev-sha256-aaa/version":                                    "openshift/must-gather\n4.18.0\n",
		"quay-io-openshift-release-dev-ocp-v4-0-art-dev-sha256-aaa/namespaces/shop/core/pods.yaml":             podList("shop", "web-1", "11111111-0000-0000-0000-000000000001"),
		"registry-redhat-io-odf4-odf-must-gather-rhel9-sha256-bbb/timestamp":                                   ts,
		"registry-redhat-io-odf4-odf-must-gather-rhel9-sha256-bbb/namespaces/shop/core/pods.yaml":              podList("shop", "web-1", "11111111-0000-0000-0000-000000000001"),
		"registry-redhat-io-odf4-odf-must-gather-rhel9-sha256-bbb/namespaces/openshift-storage/core/pods.yaml": podList("openshift-storage", "odf-operator-1", "11111111-0000-0000-0000-000000000002"),
		// the image failed for a namespace and inspect was used as fallback
		"inspect.local.42/namespaces/payments/core/pods.yaml": podList("payments", "api-1", "11111111-0000-0000-0000-000000000003"),
	})
	g, err := Load(context.Background(), top)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range g.Pods {
		got = append(got, p.Key()+" from "+rootOf(p.Source.Path))
	}
	want := []string{
		"openshift-storage/odf-operator-1 from registry-redhat-io-odf4-odf-must-gather-rhel9-sha256-bbb/",
		"payments/api-1 from inspect.local.42/",
		"shop/web-1 from quay-io-openshift-release-dev-ocp-v4-0-art-dev-sha256-aaa/",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("one pod per UID, with the image folder it came from (-want +got):\n%s", diff)
	}
	kinds := map[string]string{}
	for _, l := range g.Layouts {
		kinds[l.Root] = l.Kind
	}
	wantKinds := map[string]string{
		"inspect.local.42/": model.LayoutInspect,
		"quay-io-openshift-release-dev-ocp-v4-0-art-dev-sha256-aaa/": model.LayoutMustGather,
		"registry-redhat-io-odf4-odf-must-gather-rhel9-sha256-bbb/":  model.LayoutMustGather,
	}
	if diff := cmp.Diff(wantKinds, kinds); diff != "" {
		t.Errorf("layouts (-want +got):\n%s", diff)
	}
	if g.CollectedAt.IsZero() {
		t.Error("no gather time")
	}
}

func TestNamespaceFolderInput(t *testing.T) {
	ns := filepath.Join(t.TempDir(), "shop")
	writeTree(t, ns, map[string]string{
		"shop.yaml":      "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: shop\n",
		"core/pods.yaml": podList("shop", "web-1", "11111111-0000-0000-0000-000000000001"),
	})
	g, err := Load(context.Background(), ns)
	if err != nil {
		t.Fatal(err)
	}
	if len(g.Pods) != 1 || g.Pods[0].Key() != "shop/web-1" || len(g.Layouts) != 1 || g.Layouts[0].Kind != model.LayoutNamespace {
		t.Errorf("pods %d layouts %+v", len(g.Pods), g.Layouts)
	}
}

func TestTruncatedArchiveKeepsWhatWasRead(t *testing.T) {
	tgz := archiveOf(t, sampleGather, "gather.tar.gz", synth.Formats[".tar.gz"])
	data, _ := os.ReadFile(tgz)
	cut := filepath.Join(t.TempDir(), "cut.tar.gz")
	os.WriteFile(cut, data[:len(data)*2/3], 0o644)
	g, err := Load(context.Background(), cut)
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, p := range g.Problems {
		if strings.Contains(p.Error, "input ends early") {
			found = true
		}
	}
	if !found || g.Files == 0 {
		t.Errorf("files %d, problems %v", g.Files, g.Problems)
	}
}

// copyTree copies a folder for a test to damage.
func copyTree(t testing.TB, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestTruncatedPodListFilledFromPerPodFiles(t *testing.T) {
	want, err := Load(context.Background(), sampleGather)
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "mg")
	copyTree(t, sampleGather, dir)
	lists, _ := filepath.Glob(filepath.Join(dir, "*", "namespaces", "shop", "core", "pods.yaml"))
	data, err := os.ReadFile(lists[0])
	if err != nil {
		t.Fatal(err)
	}
	// Cut at a line boundary in the middle of the list, as `head -n` does.
	lines := strings.SplitAfter(string(data), "\n")
	os.WriteFile(lists[0], []byte(strings.Join(lines[:len(lines)/2], "")), 0o644)
	got, err := Load(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(podRows(want), podRows(got)); diff != "" {
		t.Errorf("pods differ from the intact gather (-want +got):\n%s", diff)
	}
	truncated := false
	for _, p := range got.Problems {
		truncated = truncated || strings.Contains(p.Error, "truncated copy")
	}
	if !truncated {
		t.Errorf("no problem names the truncated pods.yaml: %v", got.Problems)
	}
}

func TestSeveralGathersAreNotMerged(t *testing.T) {
	dir := t.TempDir()
	img := "quay-io-openshift-release-dev-ocp-v4-0-art-dev-sha256-aaa"
	for i, when := range []string{"2026-11-18 09:00:00.0 +0000 UTC m=+0.1\n", "2026-11-20 09:00:00.0 +0000 UTC m=+0.1\n"} {
		writeTree(t, filepath.Join(dir, fmt.Sprintf("must-gather.local.%d", i)), map[string]string{
			img + "/timestamp":                      when,
			img + "/namespaces/shop/core/pods.yaml": podList("shop", "web-1", "11111111-0000-0000-0000-000000000001"),
		})
	}
	_, err := Load(context.Background(), dir)
	var several *SeveralGathersError
	if !errors.As(err, &several) || len(several.Gathers) != 2 {
		t.Fatalf("err = %v", err)
	}
	// Two image folders of one gather side by side are one gather.
	if _, err := Load(context.Background(), filepath.Join(dir, "must-gather.local.1")); err != nil {
		t.Errorf("one gather: %v", err)
	}
}

func compressedTar(c archives.Compression) archives.Archiver {
	return archives.CompressedArchive{Compression: c, Archival: archives.Tar{}, Extraction: archives.Tar{}}
}
