package main

import (
	"bufio"
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// How the output folder (-o) is written. A run takes the folder's lock
// (lockName), removes what runs that are gone left behind (cleanStale),
// renders every chosen format to a temporary file of its own
// (tmpPrefix<run id>-report.json), and only when all are complete replaces
// the report files as one set (swapSet): the old files move to this run's
// backup names (backupPrefix), the new ones move in, the backups are
// removed; a failure midway moves the old ones back. Only the files this
// tool writes (report.md, report.html, report.json; diff.* for diff) and
// its own temporary, backup and lock files are ever moved or removed.
const (
	lockName     = ".mgtriage-lock"
	tmpPrefix    = ".mgtriage-tmp-"
	backupPrefix = ".mgtriage-old-"
)

// defaultLockWait is how long a run waits for the lock of an -o another
// run holds before it refuses.
const defaultLockWait = 5 * time.Second

// setBases are the report sets the tool writes: <base>.md, .html, .json.
var setBases = []string{"report", "diff"}

// writeHooks are the test seams of the write phase; the zero value is a
// plain run.
type writeHooks struct {
	// pause, when set, is called once every temporary file of a set is
	// complete, before the swap (and with stage "lock" once the lock is
	// taken, before the input is read); it returns when the run may go on.
	pause func(ctx context.Context, stage string)
	// wrap, when set, wraps the writer of each format's temporary file
	// (a disk that fills up while writing one format).
	wrap func(format string, w io.Writer) io.Writer
	// lockWait overrides defaultLockWait when not 0.
	lockWait time.Duration
}

// defaultHooks are the hooks every command starts with: zero in a real
// run; tests set them (in process), and main reads testHooksEnv for the
// tests that run the binary.
var defaultHooks writeHooks

// testHooksEnv names the environment variable through which the tests that
// run the built binary pause its write phase: "pause=swap" (or
// "pause=lock") makes the run print "analyze: test pause: swap" on stderr
// and wait for a line on stdin (or a signal); "lockwait=200ms" sets how long
// it waits for a held lock. Not for users.
const testHooksEnv = "MGTRIAGE_TEST_HOOKS"

// hooksFromEnv parses testHooksEnv's value (see there); unknown items are
// ignored.
func hooksFromEnv(v string, stderr io.Writer, stdin io.Reader) writeHooks {
	var h writeHooks
	for item := range strings.SplitSeq(v, ",") {
		key, val, _ := strings.Cut(strings.TrimSpace(item), "=")
		switch key {
		case "pause":
			want := val
			lines := bufio.NewReader(stdin)
			h.pause = func(ctx context.Context, stage string) {
				if stage != want {
					return
				}
				fmt.Fprintf(stderr, "analyze: test pause: %s\n", stage)
				done := make(chan struct{})
				go func() { lines.ReadString('\n'); close(done) }()
				select {
				case <-done:
				case <-ctx.Done():
				}
			}
		case "lockwait":
			if d, err := time.ParseDuration(val); err == nil {
				h.lockWait = d
			}
		}
	}
	return h
}

// newRunID returns a new run identifier (report.Run): the UTC time and 32
// random bits, "20261120T091233Z-3f9a1c02". Tests replace it to keep
// golden files fixed.
var newRunID = func() string {
	var b [4]byte
	rand.Read(b[:])
	return time.Now().UTC().Format("20060102T150405Z") + "-" + hex.EncodeToString(b[:])
}

// outputDir is an output folder (-o) this run holds the lock of.
type outputDir struct {
	dir     string
	runID   string
	created bool // this run created dir
	lock    *os.File
	hooks   writeHooks
	errOut  io.Writer
}

// openOutput checks, before any input is read, that the reports can be
// written to dir (-o): it is created when missing, and its lock is taken
// (waiting up to the lock wait for another run to finish; then exitWrite
// naming that run's pid). names is what dir will receive ("report.md,
// report.html and report.json") for the messages; redactMap, when not "",
// must be a file that can be written. What runs that are gone left behind
// is removed (cleanStale). Paths that cannot be written end the run with
// exitWrite (the README's "reports not written"), not exitUsage: the flag's
// value is well formed, the file system refuses it. close releases the lock
// and removes dir again when this run made it and it is still empty, so a
// refused or interrupted run leaves nothing that could pass for a report.
func openOutput(ctx context.Context, dir, names, redactMap, runID string, hooks writeHooks, errOut io.Writer) (*outputDir, error) {
	if fi, err := os.Lstat(dir); err == nil && fi.Mode()&os.ModeSymlink != 0 {
		if _, err := os.Stat(dir); err != nil {
			target, _ := os.Readlink(dir)
			what := "which does not exist"
			if !errors.Is(err, os.ErrNotExist) {
				what = "which cannot be followed (" + statReason(err) + ")"
			}
			return nil, exitError{code: exitWrite, msg: fmt.Sprintf("-o %q is a symbolic link to %q, %s; create that folder or name another for %s", dir, target, what, names)}
		}
	}
	if fi, err := os.Stat(dir); err == nil && !fi.IsDir() {
		return nil, exitError{code: exitWrite, msg: fmt.Sprintf("-o %q is an existing file, not a folder; name a folder for %s", dir, names)}
	}
	if redactMap != "" {
		if err := checkRedactMap(redactMap); err != nil {
			return nil, exitError{code: exitWrite, msg: err.Error()}
		}
	}
	_, statErr := os.Stat(dir)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, exitError{code: exitWrite, msg: fmt.Sprintf("-o %q: cannot create the output folder: %v", dir, err)}
	}
	d := &outputDir{dir: dir, runID: runID, created: os.IsNotExist(statErr), hooks: hooks, errOut: errOut}
	if err := d.takeLock(ctx); err != nil {
		d.close()
		return nil, err
	}
	d.cleanStale()
	if hooks.pause != nil {
		hooks.pause(ctx, "lock")
	}
	return d, nil
}

// takeLock opens dir's lock file and locks it (lockFile), waiting while
// another run holds it, up to the lock wait; the file then holds this run's
// pid and run ID. A lock file removed by the run that held it (close) is
// opened anew.
func (d *outputDir) takeLock(ctx context.Context) error {
	path := filepath.Join(d.dir, lockName)
	wait := orDefault(d.hooks.lockWait, defaultLockWait)
	deadline := time.Now().Add(wait)
	told := false
	for {
		// A link or anything but a file at the lock's name is not
		// followed: it could make the run write elsewhere.
		if fi, err := os.Lstat(path); err == nil && !fi.Mode().IsRegular() {
			return exitError{code: exitWrite, msg: fmt.Sprintf("-o %q: %s there is a %s, not the lock file of mgtriage; remove it", d.dir, lockName, describeMode(fi.Mode()))}
		}
		f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|oNoFollow, 0o644)
		if err != nil {
			return exitError{code: exitWrite, msg: fmt.Sprintf("-o %q: cannot write in the output folder: %v", d.dir, statReason(err))}
		}
		ok, err := lockFile(f)
		if err != nil {
			f.Close()
			return exitError{code: exitWrite, msg: fmt.Sprintf("-o %q: cannot lock the output folder (%s): %v", d.dir, lockName, err)}
		}
		if ok {
			// The holder before may have removed the file between our
			// open and our lock: then this lock guards nothing.
			held, err1 := f.Stat()
			now, err2 := os.Lstat(path)
			if err1 == nil && err2 == nil && os.SameFile(held, now) {
				f.Truncate(0)
				if _, err := f.WriteAt([]byte(fmt.Sprintf("pid %d run %s\n", os.Getpid(), d.runID)), 0); err != nil {
					f.Close()
					return exitError{code: exitWrite, msg: fmt.Sprintf("-o %q: cannot write in the output folder: %v", d.dir, statReason(err))}
				}
				d.lock = f
				return nil
			}
			f.Close()
			if time.Now().After(deadline) {
				return exitError{code: exitWrite, msg: fmt.Sprintf("-o %q: cannot lock the output folder: its lock file (%s) keeps changing", d.dir, lockName)}
			}
			continue
		}
		holder := lockHolder(f)
		f.Close()
		if time.Now().After(deadline) {
			return exitError{code: exitWrite, msg: fmt.Sprintf("-o %q is in use by another run of mgtriage (%s), still running after %s; wait for it to end or name another folder", d.dir, holder, wait)}
		}
		if !told {
			fmt.Fprintf(d.errOut, "analyze: -o %s is in use by another run of mgtriage (%s); waiting up to %s\n", d.dir, holder, wait)
			told = true
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// orDefault is d, or def when d is 0.
func orDefault(d, def time.Duration) time.Duration {
	if d == 0 {
		return def
	}
	return d
}

// lockHolder names the run that holds the lock file f: "pid 4242", from
// what that run wrote in it; "pid unknown" when it has not written yet.
func lockHolder(f *os.File) string {
	b := make([]byte, 128)
	n, _ := f.ReadAt(b, 0)
	fields := strings.Fields(string(b[:n]))
	if len(fields) >= 2 && fields[0] == "pid" {
		if pid, err := strconv.Atoi(fields[1]); err == nil {
			return "pid " + strconv.Itoa(pid)
		}
	}
	return "pid unknown"
}

// close releases the lock (its file is removed first, while still held)
// and removes dir when this run created it and it is empty.
func (d *outputDir) close() {
	if d.lock != nil {
		os.Remove(filepath.Join(d.dir, lockName))
		d.lock.Close()
		d.lock = nil
	}
	if d.created {
		if entries, err := os.ReadDir(d.dir); err == nil && len(entries) == 0 {
			os.Remove(d.dir)
		}
	}
}

// ownName parses a temporary or backup name of this tool,
// "<prefix><run id>-<base>.<format>", into the run ID and the report file
// name; ok is false for any other name.
func ownName(name, prefix string) (runID, report string, ok bool) {
	rest, found := strings.CutPrefix(name, prefix)
	if !found {
		return "", "", false
	}
	for _, base := range setBases {
		for _, f := range knownFormats {
			suffix := "-" + base + "." + f
			if id, found := strings.CutSuffix(rest, suffix); found && id != "" {
				return id, base + "." + f, true
			}
		}
	}
	return "", "", false
}

// oldTempName reports whether name is a temporary file of an earlier
// version of the tool: ".report-" and the decimal digits os.CreateTemp adds,
// or its write check ".write-check-<digits>".
func oldTempName(name string) bool {
	for _, p := range []string{".report-", ".write-check-"} {
		if digits, ok := strings.CutPrefix(name, p); ok && digits != "" && strings.Trim(digits, "0123456789") == "" {
			return true
		}
	}
	return false
}

// cleanStale removes the temporary and backup files that runs which are
// gone left in dir (the lock says no other run is live). A run that
// stopped inside its swap (backups and temporary files both left) is
// rolled back: its new files, those that carry its run ID, are removed and
// the backups moved back; a run that stopped after its swap only lost the
// removal of its backups.
func (d *outputDir) cleanStale() {
	entries, err := os.ReadDir(d.dir)
	if err != nil {
		return
	}
	type left struct{ tmps, backups map[string]string } // report name → file name
	runs := map[string]*left{}
	get := func(id string) *left {
		if runs[id] == nil {
			runs[id] = &left{tmps: map[string]string{}, backups: map[string]string{}}
		}
		return runs[id]
	}
	removed := 0
	for _, e := range entries {
		name := e.Name()
		if !e.Type().IsRegular() {
			continue
		}
		if id, rep, ok := ownName(name, tmpPrefix); ok {
			get(id).tmps[rep] = name
		} else if id, rep, ok := ownName(name, backupPrefix); ok {
			get(id).backups[rep] = name
		} else if oldTempName(name) {
			if os.Remove(filepath.Join(d.dir, name)) == nil {
				removed++
			}
		}
	}
	for id, l := range runs {
		if len(l.backups) > 0 && len(l.tmps) > 0 {
			// Stopped inside its swap: put the old set back.
			for _, base := range setBases {
				for _, f := range knownFormats {
					rep := base + "." + f
					if b, ok := l.backups[rep]; ok {
						os.Rename(filepath.Join(d.dir, b), filepath.Join(d.dir, rep))
						delete(l.backups, rep)
					} else if fileCarries(filepath.Join(d.dir, rep), id) {
						os.Remove(filepath.Join(d.dir, rep))
					}
				}
			}
			fmt.Fprintf(d.errOut, "analyze: %s: an earlier run (%s) stopped while replacing the reports; the reports before it were put back\n", d.dir, id)
		}
		for _, m := range []map[string]string{l.tmps, l.backups} {
			for _, name := range m {
				if os.Remove(filepath.Join(d.dir, name)) == nil {
					removed++
				}
			}
		}
	}
	if removed > 0 {
		fmt.Fprintf(d.errOut, "analyze: removed %s left in %s by earlier runs that did not finish\n", count(removed, "temporary file", "temporary files"), d.dir)
	}
}

// fileCarries reports whether the first 8 KiB of the regular file at path
// hold runID (every format writes it near its top); a link is not
// followed.
func fileCarries(path, runID string) bool {
	if fi, err := os.Lstat(path); err != nil || !fi.Mode().IsRegular() {
		return false // a link or a pipe is not opened
	}
	f, err := os.OpenFile(path, os.O_RDONLY|oNoFollow, 0)
	if err != nil {
		return false
	}
	defer f.Close()
	b := make([]byte, 8<<10)
	n, _ := io.ReadFull(f, b)
	return bytes.Contains(b[:n], []byte(runID))
}

// errStopped is what writeSet returns when the run's context ended (a
// signal) before the swap: the old set is as it was.
var errStopped = errors.New("stopped before the reports were replaced")

// writeSet writes <base>.<format> for each of formats into d's folder as
// one set: each is rendered (concurrently: render only reads) into a
// temporary file of this run, and only when all are complete does swapSet
// replace the files of the earlier set, removing a format of it that
// formats does not name (stale lists those removed, "report.html"). A
// rendering or writing error, or the end of ctx, leaves the old set as it
// was and no temporary file; errors name the file ("write report.json: no
// space left on device").
func (d *outputDir) writeSet(ctx context.Context, base string, formats []string, render func(format string, w io.Writer) error) (stale []string, err error) {
	tmps := make([]string, len(formats))
	for i, f := range formats {
		tmps[i] = filepath.Join(d.dir, tmpPrefix+d.runID+"-"+base+"."+f)
	}
	removeTmps := func() {
		for _, t := range tmps {
			os.Remove(t)
		}
	}
	errs := make([]error, len(formats))
	var wg sync.WaitGroup
	for i, f := range formats {
		wg.Go(func() {
			if err := d.writeTemp(ctx, tmps[i], f, render); err != nil {
				errs[i] = fmt.Errorf("write %s.%s: %w", base, f, err)
			}
		})
	}
	wg.Wait()
	if ctx.Err() != nil {
		removeTmps()
		return nil, errStopped
	}
	for _, err := range errs {
		if err != nil {
			removeTmps()
			return nil, err
		}
	}
	if d.hooks.pause != nil {
		d.hooks.pause(ctx, "swap")
	}
	if ctx.Err() != nil {
		removeTmps()
		return nil, errStopped
	}
	// From here the swap runs to its end or rolls back: a signal is only
	// looked at after it.
	return d.swapSet(base, formats, tmps)
}

// writeTemp renders format into the new file tmp (0644), through the
// hooks' wrap when set; a write after ctx ended fails, so a signal stops a
// long rendering.
func (d *outputDir) writeTemp(ctx context.Context, tmp, format string, render func(string, io.Writer) error) error {
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	var w io.Writer = ctxWriter{ctx, f}
	if d.hooks.wrap != nil {
		w = d.hooks.wrap(format, w)
	}
	bw := bufio.NewWriterSize(w, 256<<10)
	err = render(format, bw)
	if err == nil {
		err = bw.Flush()
	}
	if err == nil {
		err = f.Chmod(0o644) // the umask may have narrowed it
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// ctxWriter fails every write once ctx has ended.
type ctxWriter struct {
	ctx context.Context
	w   io.Writer
}

func (c ctxWriter) Write(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.w.Write(p)
}

// swapSet replaces the set <base>.* in d's folder by the complete
// temporary files tmps (one per format of formats): every existing file of
// the set (a regular file, or a symlink, which is replaced, never followed)
// moves to this run's backup name, the new files move in, then the backups
// are removed. A rename that fails moves the new files out and the backups
// back, so the folder holds the old set or the new one, never a mix. A
// folder (or other non-file) at a report's name stops the swap before
// anything moved. stale names the files of the old set that the new one
// does not replace and that were removed.
func (d *outputDir) swapSet(base string, formats []string, tmps []string) (stale []string, err error) {
	target := func(f string) string { return filepath.Join(d.dir, base+"."+f) }
	backup := func(f string) string { return filepath.Join(d.dir, backupPrefix+d.runID+"-"+base+"."+f) }
	var aside, in []string
	rollback := func(err error) ([]string, error) {
		for _, f := range in {
			os.Remove(target(f))
		}
		for _, f := range aside {
			os.Rename(backup(f), target(f))
		}
		for _, t := range tmps {
			os.Remove(t)
		}
		return nil, err
	}
	for _, f := range knownFormats {
		fi, err := os.Lstat(target(f))
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err != nil {
			return rollback(err)
		}
		if !fi.Mode().IsRegular() && fi.Mode()&os.ModeSymlink == 0 {
			return rollback(fmt.Errorf("%s in %s is a %s, not a report this tool wrote; move it away", base+"."+f, d.dir, describeMode(fi.Mode())))
		}
	}
	for _, f := range knownFormats {
		if _, err := os.Lstat(target(f)); err != nil {
			continue
		}
		if err := os.Rename(target(f), backup(f)); err != nil {
			return rollback(fmt.Errorf("move %s aside: %w", base+"."+f, err))
		}
		aside = append(aside, f)
	}
	for i, f := range formats {
		if err := renameHook(tmps[i], target(f)); err != nil {
			return rollback(fmt.Errorf("move %s into place: %w", base+"."+f, err))
		}
		in = append(in, f)
	}
	for _, f := range aside {
		os.Remove(backup(f))
		if !slices.Contains(formats, f) {
			stale = append(stale, base+"."+f)
		}
	}
	return stale, nil
}

// renameHook is os.Rename, replaced by the test of a rename that fails
// inside the swap.
var renameHook = os.Rename

// describeMode names a file type for a message: "folder", "symbolic
// link", "named pipe".
func describeMode(m os.FileMode) string {
	switch {
	case m.IsDir():
		return "folder"
	case m&os.ModeSymlink != 0:
		return "symbolic link"
	case m&os.ModeNamedPipe != 0:
		return "named pipe"
	case m&os.ModeSocket != 0:
		return "socket"
	case m&os.ModeDevice != 0:
		return "device"
	}
	return "special file"
}

// written is what a command returns after writeSet gave stale and err:
// err as the exitWrite of writeFailed (errStopped as it is, for the signal's
// exit); else nil, after telling stderr which files of an earlier set were
// removed.
func (d *outputDir) written(stale []string, err error) error {
	var ae analysisError
	if errors.Is(err, errStopped) || errors.As(err, &ae) {
		// A renderer's failure is the analysis's (exitAnalysis), not a write's.
		return err
	}
	if err != nil {
		return writeFailed(d.dir, err)
	}
	for _, name := range stale {
		fmt.Fprintf(d.errOut, "analyze: removed %s from an earlier run (not requested by --format)\n", filepath.Join(d.dir, name))
	}
	return nil
}

// writeFailed is the message of a set that could not be written: the
// error, and that the earlier reports in dir are as they were.
func writeFailed(dir string, err error) error {
	why := err.Error()
	if errors.Is(err, syscall.ENOSPC) {
		why += " (the disk is full)"
	}
	return exitError{code: exitWrite, msg: fmt.Sprintf("reports not written: %s; the reports already in %s were left as they were, and this run's temporary files removed", why, dir)}
}

// reportFiles names the files a set writes for formats ("report.md",
// "report.json"), in the order md, html, json.
func reportFiles(set string, formats []string) []string {
	var out []string
	for _, f := range knownFormats {
		if slices.Contains(formats, f) {
			out = append(out, set+"."+f)
		}
	}
	return out
}
