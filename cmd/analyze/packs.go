package main

import (
	"context"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/mgtriage/mgtriage/report"
	"github.com/mgtriage/mgtriage/rules"
	"github.com/mgtriage/mgtriage/rules/pack"
	"github.com/spf13/cobra"
)

// applyPack opens the pack at path with the trusted keys at trust (key files
// or folders of *.pub), its signature checked before any rule is read, and
// applies its rules over t. A refused pack (unsigned under --trust, a
// signature that does not verify, a key not trusted) and a pack that cannot
// be read are inputErrors (exit 2); rules that are not valid, or a --trust
// value that names no minisign public key, a usageError, as for rule files.
func applyPack(t *rules.Table, path string, trust []string) (*pack.Pack, error) {
	pk, err := openPack(path, trust)
	if err != nil {
		return nil, err
	}
	if errs := pk.Apply(t); len(errs) > 0 {
		return nil, usageError{fmt.Errorf("rules in pack %s are not valid:\n%v", path, errs)}
	}
	return pk, nil
}

// openPack is pack.Open with the keys at trust and this program's version.
func openPack(path string, trust []string) (*pack.Pack, error) {
	var keys *pack.Keys
	if len(trust) > 0 {
		k, err := pack.LoadKeys(trust)
		if err != nil {
			return nil, usageError{err} // a --trust value that names no key
		}
		keys = k
	}
	pk, err := pack.Open(path, pack.Options{Trust: keys, ToolVersion: version})
	if err != nil {
		return nil, inputError{err}
	}
	return pk, nil
}

// warnPacks prints, on w, the trust warning of each pack applied over t
// (unsigned, or signed by a key no --trust key vouches for).
func warnPacks(w io.Writer, t *rules.Table) {
	for _, p := range t.Packs {
		if p.Warning != "" {
			fmt.Fprintf(w, "analyze: warning: pack %s %s: %s\n", report.CleanText(p.Name), report.CleanText(p.Version), report.CleanText(p.Warning))
		}
	}
}

// ruleWarnings are rules.Warnings of the rule file or folder at path, or of
// a pack's rule files (read once more, after its signature is checked).
func ruleWarnings(path string, trust []string) rules.Errors {
	if !pack.IsPack(path) {
		return rules.Warnings(path)
	}
	pk, err := openPack(path, trust)
	if err != nil {
		return nil
	}
	return rules.WarningsFiles(pk.RuleFiles())
}

// newRulesPackCmd is `analyze rules pack DIR -o FILE`: the deterministic
// .tar.gz of a folder pack, its rules validated first, and its digest on
// stdout.
func newRulesPackCmd(streams IOStreams) *cobra.Command {
	var out string
	cmd := &cobra.Command{
		Use:   "pack DIR -o FILE",
		Short: "Build a rule pack's .tar.gz from its folder and print its sha256 digest",
		Long: `pack checks the folder pack at DIR (pack.yaml and its rules, as --rules would read them) and
writes it as one .tar.gz to FILE: members sorted, fixed times and owners, so the same folder always
gives the same bytes. It prints "sha256:<hex>  FILE". Sign the archive with minisign
(minisign -Sm FILE writes FILE.minisig beside it).`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if out == "" {
				return usageError{errors.New("-o/--output names no file")}
			}
			if _, err := applyPack(rules.Builtin(), args[0], nil); err != nil {
				return err
			}
			b, digest, err := pack.Build(args[0])
			if err != nil {
				return inputError{err}
			}
			if err := os.WriteFile(out, b, 0o644); err != nil {
				return exitError{code: exitWrite, msg: fmt.Sprintf("write %s: %v", out, err)}
			}
			fmt.Fprintf(streams.Out, "%s  %s\n", digest, out)
			return nil
		},
	}
	cmd.Flags().StringVarP(&out, "output", "o", "", "the .tar.gz to write")
	return cmd
}

// newRulesManifestCmd is `analyze rules manifest DIR`: what a folder pack's
// signature (DIR/pack.minisig) covers, for `minisign -Sm`.
func newRulesManifestCmd(streams IOStreams) *cobra.Command {
	return &cobra.Command{
		Use:   "manifest DIR",
		Short: "Print a folder pack's manifest (sha256 and path of each file), what pack.minisig signs",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			m, err := pack.FolderManifest(args[0])
			if err != nil {
				return inputError{err}
			}
			_, err = streams.Out.Write(m)
			return err
		},
	}
}

// packCase is one test of a pack: a rule, a gather of the pack, whether the
// rule must fire there, and the words its finding must contain.
type packCase struct {
	rule, gather string
	fires        bool
	contains     []string
	failure      string // empty when it passed
	took         time.Duration
}

func (c packCase) name() string {
	if c.fires {
		return "fires on " + c.gather
	}
	return "quiet on " + c.gather
}

// newRulesTestCmd is `analyze rules test PACK`: each test gather of the pack
// is analysed with the pack's rules over the built-in table, as analyze
// would (loadGather, analyse), and each rule must fire, with its words, or
// stay quiet as pack.yaml says. Exit 1 when a test fails.
func newRulesTestCmd(streams IOStreams, trust *[]string) *cobra.Command {
	var junit string
	cmd := &cobra.Command{
		Use:   "test PACK",
		Short: "Run a rule pack's tests: each rule must fire, with its words, or stay quiet on the pack's gathers",
		Long: `test reads the pack at PACK (a folder with pack.yaml, its .tar.gz, or an OCI image layout of it; with
--trust its signature must verify), applies its rules over the built-in table, and analyses each
test gather of pack.yaml's tests as analyze would. A rule must fire on each of its "fires" gathers
with a finding whose title, hint, remediation or evidence contains every one of the "contains"
words, and must not fire on its "quiet" gathers. It prints one line per test and exits 1 when
one fails; --junit FILE writes the results as JUnit XML for a CI.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			t := rules.Builtin()
			pk, err := applyPack(t, args[0], *trust)
			if err != nil {
				return err
			}
			warnPacks(streams.ErrOut, t)
			if len(pk.Tests) == 0 {
				return exitError{code: exitFindings, msg: fmt.Sprintf("pack %s has no tests: add tests to its pack.yaml (a gather on which each rule fires, one on which it stays quiet)", report.CleanText(pk.Name))}
			}
			cases, err := runPackTests(cmd.Context(), pk, t)
			if err != nil {
				return err
			}
			failed := 0
			for _, c := range cases {
				status := "ok  "
				if c.failure != "" {
					status = "FAIL"
					failed++
				}
				fmt.Fprintf(streams.Out, "%s %s %s\n", status, report.CleanText(c.rule), report.CleanText(c.name()))
				if c.failure != "" {
					fmt.Fprintf(streams.Out, "     %s\n", report.CleanText(c.failure))
				}
			}
			for _, id := range untested(pk, t) {
				fmt.Fprintf(streams.ErrOut, "analyze: warning: pack %s: rule %s has no test\n", pk.Name, report.CleanText(id))
			}
			fmt.Fprintf(streams.Out, "%s %s: %d passed, %d failed\n", pk.Name, pk.Version, len(cases)-failed, failed)
			if junit != "" {
				if err := writeJUnit(junit, pk, cases); err != nil {
					return exitError{code: exitWrite, msg: err.Error()}
				}
			}
			if failed > 0 {
				return exitError{code: exitFindings, msg: fmt.Sprintf("%s of pack %s failed", count(failed, "test", "tests"), pk.Name)}
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&junit, "junit", "", "also write the results to this file as JUnit XML")
	return cmd
}

// untested are the ids of the pack's rules that no test names.
func untested(pk *pack.Pack, t *rules.Table) []string {
	named := map[string]bool{}
	for _, tc := range pk.Tests {
		named[tc.Rule] = true
	}
	files := map[string]bool{}
	for _, f := range pk.RuleFiles() {
		files[f.Name] = true
	}
	var out []string
	for _, r := range t.Rules {
		if files[r.File] && !named[r.ID] {
			out = append(out, r.ID)
		}
	}
	return out
}

// runPackTests runs every test of pk with table t (the pack applied): each
// test gather is written out of the pack into a temporary folder and read
// by loadGather, then analysed (analyse). A gather that cannot be read, or
// a rule the table lacks, fails its test.
func runPackTests(ctx context.Context, pk *pack.Pack, t *rules.Table) ([]packCase, error) {
	tmp, err := os.MkdirTemp("", "mgtriage-pack-test-*")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	var cases []packCase
	for _, tc := range pk.Tests {
		for _, f := range tc.Fires {
			cases = append(cases, packCase{rule: tc.Rule, gather: f.Gather, fires: true, contains: f.Contains})
		}
		for _, q := range tc.Quiet {
			cases = append(cases, packCase{rule: tc.Rule, gather: q})
		}
	}
	known := map[string]bool{}
	for _, r := range t.Rules {
		known[r.ID] = true
	}
	quiet := IOStreams{Out: io.Discard, ErrOut: io.Discard}
	for i := range cases {
		c := &cases[i]
		start := time.Now()
		if !known[c.rule] {
			c.failure = fmt.Sprintf("no rule %s in the table with the pack applied", c.rule)
			continue
		}
		dir := filepath.Join(tmp, fmt.Sprintf("%d", i))
		if err := writePackFiles(dir, pk.Files(c.gather)); err != nil {
			return nil, err
		}
		g, err := loadGather(ctx, quiet, dir, loadOptions{}, t.Needs(), nil)
		if err != nil {
			c.failure = fmt.Sprintf("the gather %s cannot be read: %v", c.gather, strings.ReplaceAll(err.Error(), dir, c.gather))
			continue
		}
		findings, _, err := analyse(&analyzeOptions{}, t, g)
		if err != nil {
			return nil, err
		}
		c.failure = judge(*c, findings)
		c.took = time.Since(start)
	}
	return cases, nil
}

// judge says why c failed on findings, or "" when it passed: the rule's
// findings (its own, or those it was folded into) must exist and one of them
// hold every word, or not exist for a quiet test.
func judge(c packCase, findings []rules.Finding) string {
	var texts []string
	for _, f := range findings {
		if f.Rule.ID == c.rule || slices.Contains(f.AlsoMatched, c.rule) {
			texts = append(texts, findingText(f))
		}
	}
	switch {
	case !c.fires && len(texts) > 0:
		return fmt.Sprintf("fired (%s) where it must stay quiet", firstLine(texts[0]))
	case !c.fires:
		return ""
	case len(texts) == 0:
		return "did not fire"
	}
	var missing []string
	for _, text := range texts {
		missing = missing[:0]
		for _, w := range c.contains {
			if !strings.Contains(text, w) {
				missing = append(missing, fmt.Sprintf("%q", w))
			}
		}
		if len(missing) == 0 {
			return ""
		}
	}
	return fmt.Sprintf("fired, but its finding lacks %s: %s", strings.Join(missing, ", "), firstLine(texts[0]))
}

// findingText is what a test's words are looked for in: the title, hint,
// remediation and evidence lines of f, one per line.
func findingText(f rules.Finding) string {
	parts := []string{f.Title, f.Hint}
	parts = append(parts, f.Remediation...)
	for _, e := range f.Evidence {
		parts = append(parts, e.Text)
	}
	return strings.Join(parts, "\n")
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

// writePackFiles writes files (slash paths relative to dir) under dir.
func writePackFiles(dir string, files map[string][]byte) error {
	for p, b := range files {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(full, b, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// JUnit XML, in the shape CI systems read (testsuites > testsuite >
// testcase with an optional failure).
type junitSuites struct {
	XMLName xml.Name     `xml:"testsuites"`
	Suites  []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name     string      `xml:"name,attr"`
	Tests    int         `xml:"tests,attr"`
	Failures int         `xml:"failures,attr"`
	Time     string      `xml:"time,attr"`
	Cases    []junitCase `xml:"testcase"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	ClassName string        `xml:"classname,attr"`
	Time      string        `xml:"time,attr"`
	Failure   *junitFailure `xml:"failure,omitempty"`
}

type junitFailure struct {
	Message string `xml:"message,attr"`
	Text    string `xml:",chardata"`
}

// writeJUnit writes cases as JUnit XML to path: one testsuite named after
// the pack and its version, one testcase per test, classname the rule id.
func writeJUnit(path string, pk *pack.Pack, cases []packCase) error {
	s := junitSuite{Name: pk.Name + " " + pk.Version, Tests: len(cases)}
	var total time.Duration
	for _, c := range cases {
		jc := junitCase{Name: c.name(), ClassName: c.rule, Time: seconds(c.took)}
		if c.failure != "" {
			s.Failures++
			jc.Failure = &junitFailure{Message: c.failure, Text: c.failure}
		}
		total += c.took
		s.Cases = append(s.Cases, jc)
	}
	s.Time = seconds(total)
	b, err := xml.MarshalIndent(junitSuites{Suites: []junitSuite{s}}, "", "  ")
	if err != nil {
		return err
	}
	if err := os.WriteFile(path, append([]byte(xml.Header), append(b, '\n')...), 0o644); err != nil {
		return fmt.Errorf("write --junit: %w", err)
	}
	return nil
}

func seconds(d time.Duration) string { return fmt.Sprintf("%.3f", d.Seconds()) }

// rulesFlagHelp is the --rules flag's help, the same on every command that
// takes it.
const rulesFlagHelp = "a rule file or folder, or a rule pack (a folder with pack.yaml, its .tar.gz or an OCI image layout), that adds to or overrides the built-in rules; repeatable, applied in the order given (a later one overrides an earlier one's rule of the same ID)"
