package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"net/url"
	"os"
	"path"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/mgtriage/mgtriage/parser"
	"github.com/mgtriage/mgtriage/report"
	"github.com/mgtriage/mgtriage/report/serve"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spf13/cobra"
)

// serveOptions are analyze serve's flags.
type serveOptions struct {
	IO         IOStreams
	Path       string
	RulesPaths []string
	// Trust are the minisign keys a --rules pack must be signed with.
	Trust  []string
	Redact bool
	// Listen is ADDR:PORT for streamable HTTP on loopback; "" serves on
	// stdio.
	Listen string
	// KeepObjects is the budget of kept object files, compressed ("256MiB").
	KeepObjects string
	keepObjects int64
	// AnswerBytes is the byte budget of one answer.
	AnswerBytes      int
	MarkdownMaxChars int
	loadOptions
}

// DefaultKeepObjects is the default budget of object files kept,
// compressed, for get and source (model.KeptFiles).
const DefaultKeepObjects = "256MiB"

// MaxRereadBytes bounds one file of a folder input read again for an
// answer (decompressed, for a .gz log).
const MaxRereadBytes = 256 << 20

func newServeCmd(io IOStreams) *cobra.Command {
	o := &serveOptions{IO: io}
	cmd := &cobra.Command{
		Use:   "serve [flags] PATH",
		Short: "Serve one analysed gather to AI assistants and tools over MCP (stdio, or HTTP on loopback)",
		Long: `serve reads the gather at PATH once, as analyze does (same rules, --rules and --redact), and
answers questions about it over the Model Context Protocol: on stdin/stdout by default (how an
assistant starts a local server), or over streamable HTTP on a loopback address with --listen.

Tools (all read-only): overview, findings, pod, get, events, logs, explain, source.
Resources: mgtriage://report/report.md and mgtriage://report/report.json.

Nothing is written, nothing is read outside PATH, and the network is never reached; an archive is
never read again, a folder's files may be (logs and sources), through a reader confined to it.
Paths in tool arguments are relative to the gather, as the answers cite them.

` + serveExitCodesHelp,
		Args:          cobra.ExactArgs(1),
		SilenceUsage:  true,
		SilenceErrors: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			o.Path = args[0]
			return runServe(cmd.Context(), o)
		},
	}
	f := cmd.Flags()
	f.StringArrayVar(&o.RulesPaths, "rules", nil, rulesFlagHelp)
	f.StringArrayVar(&o.Trust, "trust", nil, "a minisign public key file, or a folder of *.pub keys, that the --rules pack must be signed with (repeatable); unsigned packs are then refused")
	f.BoolVar(&o.Redact, "redact", false, "redact every answer and resource as analyze --redact redacts the reports")
	f.StringVar(&o.Listen, "listen", "", "serve streamable HTTP on ADDR:PORT, ADDR a loopback address (127.0.0.1, ::1, localhost); default: stdio")
	f.StringVar(&o.KeepObjects, "keep-objects", DefaultKeepObjects, "budget of object files kept in memory, compressed, for get and source (0: none)")
	f.IntVar(&o.AnswerBytes, "answer-bytes", serve.DefaultAnswerBytes, "byte budget of one answer; a longer answer carries a next cursor")
	markdownBoundFlags(f, &o.MarkdownMaxChars, "the report.md resource", "")
	f.StringVar(&o.MaxRead, "max-read", fmt.Sprintf("%dGiB", parser.DefaultMaxReadBytes>>30), "stop reading the input after this many bytes, counted decompressed")
	f.IntVar(&o.MaxMembers, "max-members", parser.DefaultMaxMembers, "stop reading the input after this many files, folders and links")
	return cmd
}

// serveExitCodesHelp are serve's exit codes (it writes no report).
const serveExitCodesHelp = `Exit codes:
  0   the client ended the session (stdin closed, after every request read was answered)
  2   input not analysable: PATH missing, unreadable, or no gather in it; parts that are not
      one cluster; or a rule pack refused (unsigned under --trust, a bad signature, hostile)
  5   analysis failed (a bug of mgtriage; one line says where, please report it)
  64  usage error: unknown flag, bad flag value, wrong arguments, --listen not on loopback
      or its port taken
  70  internal error: mgtriage stopped on a bug of its own outside the analysis
  130 stopped by SIGINT (143: SIGTERM)`

// loopbackListen checks --listen: ADDR:PORT with ADDR in 127.0.0.0/8, ::1
// or localhost.
func loopbackListen(addr string) error {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("--listen %q: give ADDR:PORT (127.0.0.1:8765): %v", addr, err)
	}
	if port == "" {
		return fmt.Errorf("--listen %q: give a port", addr)
	}
	if !loopbackHost(host) {
		return fmt.Errorf("--listen %q: only a loopback address is served (127.0.0.0/8, ::1, localhost): the gather's data never leaves this machine", addr)
	}
	return nil
}

// loopbackHost reports whether host (no port) names the loopback
// interface.
func loopbackHost(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(strings.Trim(host, "[]"))
	return ip != nil && ip.IsLoopback()
}

func (o *serveOptions) validate() error {
	if o.Listen != "" {
		if err := loopbackListen(o.Listen); err != nil {
			return usageError{err}
		}
	}
	n, err := parseSize(o.KeepObjects)
	if err != nil {
		return usageError{fmt.Errorf("--keep-objects %q: %v", o.KeepObjects, err)}
	}
	o.keepObjects = n
	if o.AnswerBytes < 1024 || o.AnswerBytes > 1<<20 {
		return usageError{errors.New("--answer-bytes must be 1024 to 1048576")}
	}
	return o.loadOptions.validate()
}

// loadServed reads and analyses the gather once and returns the server
// that answers about it.
func loadServed(ctx context.Context, o *serveOptions) (*serve.Server, error) {
	table, err := loadTable(o.IO.ErrOut, o.RulesPaths, o.Trust)
	if err != nil {
		return nil, err
	}
	warnPacks(o.IO.ErrOut, table)
	if err := o.validate(); err != nil {
		return nil, err
	}
	fi, err := os.Stat(o.Path)
	if err != nil {
		return nil, inputError{fmt.Errorf("%s: %v", o.Path, statReason(err))}
	}
	in := make(chan inputResult, 1)
	go func() { in <- identifyInput(o.Path) }()
	lo := o.loadOptions
	lo.keepFiles = o.keepObjects
	g, err := loadGather(ctx, o.IO, o.Path, lo, table.Needs(), nil)
	if err != nil {
		return nil, err
	}
	store := g.Objects // report.Build releases it from g
	findings, r, err := analyse(&analyzeOptions{}, table, g)
	if err != nil {
		return nil, analysisFailed(&analyzeOptions{Output: "(none: serve writes nothing)"}, err)
	}
	// The server keeps the store: get reads it, and explain evaluates the
	// rules again over the whole gather.
	g.Objects = store
	if res := <-in; res.err == nil {
		r.Gather.Input = res.file
	}
	input := serve.Input{Gather: g, Store: store, Table: table, Findings: findings, Report: r,
		Markdown: report.MarkdownOptions{MaxChars: o.MarkdownMaxChars}}
	if o.Redact {
		input.Redactor, input.Report = report.NewRedactor(r)
	}
	if fi.IsDir() {
		root, err := os.OpenRoot(o.Path)
		if err != nil {
			return nil, inputError{fmt.Errorf("%s: %v", o.Path, err)}
		}
		input.Reread = func(p string) ([]byte, error) { return rereadConfined(root, p) }
	}
	return serve.New(input, serve.Options{AnswerBytes: o.AnswerBytes, Version: version}), nil
}

// rereadConfined reads the file p (relative, '/'-separated) of a folder
// input through root, which refuses any path or link that leads out of it,
// at most MaxRereadBytes, a compressed file (gzip, xz, zstd, bzip2: parser.Decompressed) decompressed.
func rereadConfined(root *os.Root, p string) ([]byte, error) {
	if p == "" || path.IsAbs(p) || strings.Contains(p, "\x00") {
		return nil, errors.New("not a path of the gather")
	}
	// Stat first, and open without blocking: a FIFO or device must not
	// hang the answer (opening a FIFO waits for a writer); the Stat of the
	// open file then refuses one that replaced the file in between.
	st, err := root.Stat(p)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, errors.New("is not a file of the gather (paths are relative to the gather, as the answers cite them: namespaces/<ns>/core/pods.yaml)")
	}
	if err != nil {
		return nil, fmt.Errorf("cannot be read: %v", pathErr(err))
	}
	if !st.Mode().IsRegular() {
		return nil, errors.New("not a regular file")
	}
	f, err := root.OpenFile(p, os.O_RDONLY|openNoBlock, 0)
	if err != nil {
		return nil, fmt.Errorf("cannot be read: %v", pathErr(err))
	}
	defer f.Close()
	if st, err = f.Stat(); err != nil || !st.Mode().IsRegular() {
		return nil, errors.New("not a regular file")
	}
	size := min(st.Size(), MaxRereadBytes) + bytes.MinRead // read once into one buffer
	// Compressed files (a .gz rotated log, a sosreport's .xz journal) are
	// read as the one pass read them: the content decides.
	r, kind, closeR, err := parser.Decompressed(f)
	if err != nil {
		return nil, fmt.Errorf("cannot be decompressed: %v", err)
	}
	defer closeR()
	if kind != "" {
		size = 1 << 20
	}
	buf := bytes.NewBuffer(make([]byte, 0, size))
	if _, err := buf.ReadFrom(io.LimitReader(r, MaxRereadBytes+1)); err != nil {
		return nil, fmt.Errorf("cannot be read: %v", err)
	}
	b := buf.Bytes()
	if len(b) > MaxRereadBytes {
		return nil, fmt.Errorf("is over %d MiB; only kept lines are searched", MaxRereadBytes>>20)
	}
	return b, nil
}

// pathErr is err without the path an *os.PathError repeats.
func pathErr(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

func runServe(ctx context.Context, o *serveOptions) error {
	if ctx == nil {
		ctx = context.Background()
	}
	start := time.Now()
	s, err := loadServed(ctx, o)
	if err != nil {
		return err
	}
	m := s.MCP()
	fmt.Fprintf(o.IO.ErrOut, "analyze serve: %s read and analysed in %s; serving over %s\n", report.CleanText(o.Path), time.Since(start).Round(time.Millisecond), transportName(o.Listen))
	if o.Listen == "" {
		in := &drainingReader{r: o.IO.In}
		m.AddReceivingMiddleware(in.track)
		err := m.Run(ctx, &mcp.IOTransport{Reader: io.NopCloser(in), Writer: nopWriteCloser{o.IO.Out}, MaxLineLength: maxRequestBytes})
		if err == nil || errors.Is(err, io.EOF) || ctx.Err() != nil {
			return stopped(ctx)
		}
		return err
	}
	ln, err := net.Listen("tcp", o.Listen)
	if err != nil {
		return exitError{code: exitUsage, msg: fmt.Sprintf("--listen %s: %v", o.Listen, err)}
	}
	if err := serveHTTP(ctx, ln, m, o.IO.ErrOut); ctx.Err() == nil {
		return err
	}
	return stopped(ctx)
}

// stopped is serve's error when ctx ended (a signal): nothing to say but
// the signal, since serve writes nothing (stoppedBySignal words it).
func stopped(ctx context.Context) error {
	if ctx.Err() != nil {
		return exitError{}
	}
	return nil
}

// drainingReader is stdin for the stdio transport: at its end it waits,
// before it says so, until every request read has been answered (track
// counts them), so that requests piped in and followed by the end of input
// (printf '...' | analyze serve) are all answered before the session
// closes; at most drainWait.
type drainingReader struct {
	r        io.Reader
	inflight atomic.Int64
}

// drainWait bounds how long the end of input waits for answers.
const drainWait = 2 * time.Minute

func (d *drainingReader) Read(p []byte) (int, error) {
	n, err := d.r.Read(p)
	if err == io.EOF {
		// The last request read may not be dispatched yet: a moment for
		// it, then until no request is in flight, then a moment for the
		// last answer to be written.
		time.Sleep(50 * time.Millisecond)
		for deadline := time.Now().Add(drainWait); d.inflight.Load() > 0 && time.Now().Before(deadline); {
			time.Sleep(10 * time.Millisecond)
		}
		time.Sleep(50 * time.Millisecond)
	}
	return n, err
}

// track is a receiving middleware that counts the requests in flight.
func (d *drainingReader) track(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		d.inflight.Add(1)
		defer d.inflight.Add(-1)
		return next(ctx, method, req)
	}
}

func transportName(listen string) string {
	if listen == "" {
		return "stdio"
	}
	return "streamable HTTP"
}

type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }

// serveHTTP serves m over streamable HTTP on ln, at /mcp, until ctx ends.
// A request whose Host or Origin is not loopback is refused (403), against
// DNS rebinding and cross-site requests from a browser.
func serveHTTP(ctx context.Context, ln net.Listener, m *mcp.Server, errOut io.Writer) error {
	srv := &http.Server{Handler: mcpHandler(m), ReadHeaderTimeout: 10 * time.Second, IdleTimeout: 5 * time.Minute, MaxHeaderBytes: 64 << 10}
	fmt.Fprintf(errOut, "analyze serve: listening on http://%s/mcp\n", ln.Addr())
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	select {
	case <-ctx.Done():
		sctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		_ = srv.Shutdown(sctx)
		return ctx.Err()
	case err := <-done:
		return err
	}
}

// maxRequestBytes bounds one request from a client, on stdio (a line) and
// over HTTP (a body): arguments are at most a few KiB (the SDK's defaults
// are 16 and 4 MiB).
const maxRequestBytes = 1 << 20

// mcpHandler is the HTTP handler of m: streamable HTTP at /mcp, loopback
// clients only.
func mcpHandler(m *mcp.Server) http.Handler {
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return m }, &mcp.StreamableHTTPOptions{SessionTimeout: 30 * time.Minute,
		MaxRequestBodyBytes: maxRequestBytes, PropagateRequestCancellation: true})
	mux := http.NewServeMux()
	mux.Handle("/mcp", loopbackOnly(h))
	return mux
}

// loopbackOnly refuses a request whose Host, or Origin when it has one,
// is not a loopback name or address.
func loopbackOnly(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		host := r.Host
		if hh, port, err := net.SplitHostPort(host); err == nil {
			host = hh
			if _, err := strconv.ParseUint(port, 10, 16); err != nil {
				host = "" // "localhost:80@evil.example": not a port
			}
		}
		if !loopbackHost(host) {
			http.Error(w, "mgtriage serves loopback clients only: Host is not a loopback name", http.StatusForbidden)
			return
		}
		if origin := r.Header.Get("Origin"); origin != "" {
			u, err := url.Parse(origin)
			if err != nil || !loopbackHost(u.Hostname()) {
				http.Error(w, "mgtriage serves loopback clients only: Origin is not a loopback origin", http.StatusForbidden)
				return
			}
		}
		h.ServeHTTP(w, r)
	})
}
