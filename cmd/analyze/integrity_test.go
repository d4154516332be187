package main

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// uploadOf writes the tiny gather as a .tar.gz or a .zip (archive/zip:
// deflated members with data descriptors), in memory.
func uploadOf(t *testing.T, format string) []byte {
	t.Helper()
	src := tinyGather(t)
	var buf bytes.Buffer
	var add func(name string, body []byte)
	var done func()
	switch format {
	case "zip":
		zw := zip.NewWriter(&buf)
		add = func(name string, body []byte) {
			w, err := zw.Create(name)
			must(t, err)
			w.Write(body)
		}
		done = func() { must(t, zw.Close()) }
	default:
		zw := gzip.NewWriter(&buf)
		tw := tar.NewWriter(zw)
		add = func(name string, body []byte) {
			must(t, tw.WriteHeader(&tar.Header{Name: name, Mode: 0o644, Size: int64(len(body)), Typeflag: tar.TypeReg}))
			tw.Write(body)
		}
		done = func() { must(t, tw.Close()); must(t, zw.Close()) }
	}
	must(t, filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		body, err := os.ReadFile(p)
		rel, _ := filepath.Rel(filepath.Dir(src), p)
		add(filepath.ToSlash(rel), body)
		return err
	}))
	done()
	return buf.Bytes()
}

// damagedUpload is the tiny gather's .tar.gz with a byte of its trailer's
// CRC-32 changed, as a transfer that changed the bytes leaves it.
func damagedUpload(t *testing.T) string {
	data := uploadOf(t, "tar.gz")
	data[len(data)-8] ^= 0x20
	p := filepath.Join(t.TempDir(), "case-0420.tar.gz")
	must(t, os.WriteFile(p, data, 0o644))
	return p
}

// cutZip is the tiny gather's zip cut where its central directory starts.
func cutZip(t *testing.T) string {
	data := uploadOf(t, "zip")
	end := bytes.LastIndex(data, []byte("PK\x05\x06"))
	cd := binary.LittleEndian.Uint32(data[end+16:])
	p := filepath.Join(t.TempDir(), "case-0420.zip")
	must(t, os.WriteFile(p, data[:cd], 0o644))
	return p
}

func TestUploadDamagedOrTruncated(t *testing.T) {
	intact := filepath.Join(t.TempDir(), "case-0420.tar.gz")
	must(t, os.WriteFile(intact, uploadOf(t, "tar.gz"), 0o644))
	tests := []struct {
		name, in string
		first    string // stdout's first line starts so
		kind     string // report.json's gather.faults[0].kind; "": none
	}{
		{"trailer CRC changed", damagedUpload(t), "INPUT DAMAGED: the input's gzip stream is damaged (gzip: invalid checksum)", "damaged"},
		{"cut .tar.gz", truncatedArchive(t), "INPUT INCOMPLETE: input ends early", "truncated"},
		{"cut zip", cutZip(t), "INPUT INCOMPLETE: input ends early, analysed what was read before: the zip was cut short (central directory missing): 7 files read before the cut; the input ends after the last member", "truncated"},
		{"intact", intact, "mgtriage", ""},
	}
	for _, tt := range tests {
		for _, strict := range []bool{false, true} {
			name := tt.name
			args := []string{tt.in, "-o", filepath.Join(t.TempDir(), "out")}
			want := exitOK
			if strict {
				name += " --strict"
				args = append(args, "--strict")
				if tt.kind != "" {
					want = exitDamaged
				}
			}
			t.Run(name, func(t *testing.T) {
				code, stdout, stderr := run(t, args...)
				if code != want {
					t.Fatalf("exit %d, want %d: %s", code, want, stderr)
				}
				if !strings.HasPrefix(stdout, tt.first) {
					t.Errorf("stdout does not start with %q:\n%.600s", tt.first, stdout)
				}
				if want == exitDamaged && !strings.Contains(stderr, "(--strict)") {
					t.Errorf("stderr does not say why it exits 4:\n%s", stderr)
				}
				r := readReport(t, args[2]) // the reports are written first
				if tt.kind == "" && len(r.Gather.Faults) != 0 || tt.kind != "" && (len(r.Gather.Faults) == 0 || r.Gather.Faults[0].Kind != tt.kind) {
					t.Errorf("report.json gather.faults = %+v, want kind %q", r.Gather.Faults, tt.kind)
				}
				if tt.kind != "" && len(r.Pods) == 0 {
					t.Errorf("no pod analysed")
				}
				for _, f := range []string{"report.md", "report.html"} {
					if _, err := os.Stat(filepath.Join(args[2], f)); err != nil {
						t.Error(err)
					}
				}
			})
		}
	}
}
