// Package pack reads rule packs: a folder, a .tar.gz or an OCI image layout
// holding pack.yaml (name, version, the mgtriage versions it needs, the rule
// table schema, a description, its public sources), its rule files and its
// tests (per rule, small gathers that must make it fire or stay quiet). It
// checks a pack's minisign signature before any rule is read, builds the
// deterministic .tar.gz of a folder, and applies a pack's rules over a
// rules.Table. Archives are read within Limits. It does not read gathers
// or run tests: the command line does, with the loader every command uses.
package pack

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/Masterminds/semver/v3"
	"github.com/mgtriage/mgtriage/rules"
	"sigs.k8s.io/yaml"
)

// ManifestFile is the file at a pack's root that describes it.
const ManifestFile = "pack.yaml"

// Spec is pack.yaml.
type Spec struct {
	// Name is the pack's id: lower-case words joined by "-".
	Name string `json:"name"`
	// Version is the pack's semantic version ("1.2.0").
	Version string `json:"version"`
	// Mgtriage is the semver range of mgtriage versions the pack needs
	// (">=0.9.0 <2.0.0").
	Mgtriage string `json:"mgtriage"`
	// SchemaVersion is the rule table schema its rule files are written in
	// (rules.SchemaVersion).
	SchemaVersion int    `json:"schemaVersion"`
	Description   string `json:"description"`
	// Sources are the public reports (bug trackers, knowledge articles)
	// the pack's rules were learned from.
	Sources []string `json:"sources"`
	// Rules are the pack's rule files, paths relative to the pack; empty
	// means every rules/*.yaml.
	Rules []string `json:"rules,omitempty"`
	// Tests are the pack's rule tests.
	Tests []Test `json:"tests,omitempty"`
}

// Test is one rule's tests: gathers (folders of the pack) on which the rule
// must fire, each with the words its finding must contain, and gathers on
// which it must stay quiet.
type Test struct {
	Rule  string     `json:"rule"`
	Fires []FireCase `json:"fires,omitempty"`
	Quiet []string   `json:"quiet,omitempty"`
}

// FireCase is a gather on which a rule must fire, and the exact words
// (case-sensitive substrings) its finding (title, hint, remediation,
// evidence) must contain.
type FireCase struct {
	Gather   string   `json:"gather"`
	Contains []string `json:"contains,omitempty"`
}

// Pack is a pack read and checked: its spec, its files, how it was stored,
// its digest and whether a trusted key signed it.
type Pack struct {
	Spec
	// Path is where it was read from.
	Path string
	Form Form
	// Digest is "sha256:<hex>" of the .tar.gz (an archive, or an OCI
	// layout's layer) or of the manifest (a folder; Manifest).
	Digest string
	// Signed is true when its signature was verified (with a --trust key,
	// or with the key shipped beside it: Trusted says which).
	Signed  bool
	Trusted bool
	KeyID   string
	// Warning is what a user must hear on loading it, as stderr and the
	// report's header say it: not signed, or signed by a key no trusted
	// key vouches for; empty when a trusted key verified it.
	Warning string
	files   files
}

// Options tell Open what to check.
type Options struct {
	// Trust are the public keys a pack's signature must verify with; when
	// not empty, an unsigned pack is refused.
	Trust *Keys
	// ToolVersion is the running mgtriage's version; a semantic version is
	// checked against the pack's mgtriage range, anything else ("dev") is
	// not checked.
	ToolVersion string
	// Limits bound the reading (DefaultLimits when zero).
	Limits Limits
}

// RefusedError is a pack that must not be used: unsigned under --trust, a
// signature that does not verify, or signed by a key not trusted.
type RefusedError struct {
	Path string
	Why  string
}

func (e *RefusedError) Error() string { return fmt.Sprintf("pack %s refused: %s", e.Path, e.Why) }

var nameRe = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)

// Open reads the pack at p (a folder with pack.yaml, a .tar.gz, an OCI
// image layout), checks its signature before reading any rule (Verify), then
// its pack.yaml. A refused pack is a *RefusedError; any other problem (not
// a pack, over a limit, a bad pack.yaml) is a plain error naming it.
func Open(p string, o Options) (*Pack, error) {
	lim := o.Limits
	if lim == (Limits{}) {
		lim = DefaultLimits
	}
	r, err := readRaw(p, lim)
	if err != nil {
		return nil, fmt.Errorf("pack %s: %w", p, err)
	}
	pk := &Pack{Path: p, Form: r.form}
	if err := verify(pk, r, o.Trust); err != nil {
		return nil, err
	}
	sum := sha256.Sum256(r.signed)
	pk.Digest = "sha256:" + hex.EncodeToString(sum[:])
	pk.files = r.files
	if r.archive != nil {
		if pk.files, err = readTarGz(r.archive, lim); err != nil {
			return nil, fmt.Errorf("pack %s: %w", p, err)
		}
	}
	if err := pk.readSpec(o.ToolVersion); err != nil {
		return nil, fmt.Errorf("pack %s: %w", p, err)
	}
	return pk, nil
}

// readSpec decodes and checks pack.yaml.
func (pk *Pack) readSpec(tool string) error {
	b, ok := pk.files[ManifestFile]
	if !ok {
		return errors.New("no pack.yaml at its root")
	}
	if err := yaml.UnmarshalStrict(b, &pk.Spec); err != nil {
		return fmt.Errorf("pack.yaml: %v", err)
	}
	s := pk.Spec
	switch {
	case !nameRe.MatchString(s.Name):
		return fmt.Errorf("pack.yaml: name %q: want lower-case words joined by \"-\"", s.Name)
	case s.SchemaVersion != rules.SchemaVersion:
		return fmt.Errorf("pack.yaml: schemaVersion %d: this program reads rule table schema %d", s.SchemaVersion, rules.SchemaVersion)
	case strings.TrimSpace(s.Description) == "":
		return errors.New("pack.yaml: description is empty: say what the pack checks")
	case len(s.Sources) == 0:
		return errors.New("pack.yaml: sources is empty: list the public reports its rules were learned from")
	}
	if _, err := semver.StrictNewVersion(s.Version); err != nil {
		return fmt.Errorf("pack.yaml: version %q: %v (want a semantic version such as 1.0.0)", s.Version, err)
	}
	c, err := semver.NewConstraint(s.Mgtriage)
	if err != nil {
		return fmt.Errorf("pack.yaml: mgtriage %q: %v (want a range such as \">=1.0.0 <2.0.0\")", s.Mgtriage, err)
	}
	if v, err := semver.NewVersion(strings.TrimPrefix(tool, "v")); err == nil && !c.Check(v) {
		return fmt.Errorf("needs mgtriage %s; this is %s", s.Mgtriage, tool)
	}
	for _, r := range s.Rules {
		if _, ok := pk.files[path.Clean(r)]; !ok {
			return fmt.Errorf("pack.yaml: rule file %s is not in the pack", r)
		}
	}
	if len(pk.RuleFiles()) == 0 {
		return errors.New("the pack holds no rule file (rules/*.yaml, or the files pack.yaml's rules lists)")
	}
	for _, t := range s.Tests {
		for _, g := range append(fireGathers(t.Fires), t.Quiet...) {
			if !pk.HasFolder(g) {
				return fmt.Errorf("pack.yaml: test of rule %s: gather %q is not a folder of the pack", t.Rule, g)
			}
		}
	}
	return nil
}

func fireGathers(fs []FireCase) []string {
	out := make([]string, len(fs))
	for i, f := range fs {
		out[i] = f.Gather
	}
	return out
}

// RuleFiles are the pack's rule files in order, each named "<pack
// path>:<path in the pack>" for error messages.
func (pk *Pack) RuleFiles() []rules.File {
	var names []string
	if len(pk.Spec.Rules) > 0 {
		for _, r := range pk.Spec.Rules {
			names = append(names, path.Clean(r))
		}
	} else {
		for _, p := range pk.files.sorted() {
			if path.Dir(p) == "rules" && strings.HasSuffix(p, ".yaml") {
				names = append(names, p)
			}
		}
	}
	out := make([]rules.File, 0, len(names))
	for _, n := range names {
		out = append(out, rules.File{Name: pk.Path + ":" + n, Data: pk.files[n]})
	}
	return out
}

// HasFolder says whether dir (slash path relative to the pack) holds a file.
func (pk *Pack) HasFolder(dir string) bool {
	dir = path.Clean(dir)
	if dir == "." || strings.HasPrefix(dir, "../") || dir == ".." || path.IsAbs(dir) {
		return false
	}
	for p := range pk.files {
		if strings.HasPrefix(p, dir+"/") {
			return true
		}
	}
	return false
}

// Files returns the pack's files under dir ("" for all), slash paths
// relative to dir, to their bytes; `rules test` writes a test gather out
// with them.
func (pk *Pack) Files(dir string) map[string][]byte {
	out := map[string][]byte{}
	prefix := ""
	if dir != "" {
		prefix = path.Clean(dir) + "/"
	}
	for p, b := range pk.files {
		if rel, ok := strings.CutPrefix(p, prefix); ok {
			out[rel] = b
		}
	}
	return out
}

// FolderManifest is the manifest (Manifest) of the folder pack at dir: what
// `minisign -Sm` signs into dir/pack.minisig.
func FolderManifest(dir string) ([]byte, error) {
	r, err := readFolder(dir, DefaultLimits)
	if err != nil {
		return nil, fmt.Errorf("pack %s: %w", dir, err)
	}
	return r.signed, nil
}

// IsPack says whether p looks like a pack rather than a rule file or a
// folder of rule files: a folder holding pack.yaml or an OCI layout, or a
// .tar.gz / .tgz file.
func IsPack(p string) bool {
	if strings.HasSuffix(p, ".tar.gz") || strings.HasSuffix(p, ".tgz") {
		return true
	}
	for _, f := range []string{ManifestFile, "oci-layout"} {
		if fi, err := os.Stat(filepath.Join(p, f)); err == nil && fi.Mode().IsRegular() {
			return true
		}
	}
	return false
}

// Ref is how a report names the pack.
func (pk *Pack) Ref() rules.PackRef {
	return rules.PackRef{Name: pk.Name, Version: pk.Version, Digest: pk.Digest, Signed: pk.Signed && pk.Trusted, KeyID: pk.KeyID, Warning: pk.Warning}
}

// Apply adds the pack's rules over t (rules.Table.OverrideFiles) and names
// the pack in t.Packs; t is unchanged on an error.
func (pk *Pack) Apply(t *rules.Table) rules.Errors {
	if errs := t.OverrideFiles(pk.RuleFiles()); len(errs) > 0 {
		return errs
	}
	t.Packs = append(t.Packs, pk.Ref())
	return nil
}
