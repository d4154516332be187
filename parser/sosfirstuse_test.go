package parser

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/mgtriage/mgtriage/parser/model"
)

// What a first-time user met reading node sosreports (issue #29): the zone
// of the date file, snap-installed kubelets, a date or hostname file that
// is not one. Each case is a sosreport written by the test; want are its
// layout, its gather time, the first kubelet line of its host in UTC and
// its gather problems (path: text).
func TestLoadSosreportFirstUse(t *testing.T) {
	const root = "sosreport-juju-x-5-2022-02-11-abcdefg/"
	const journal = "-- Logs begin at Fri 2022-02-11 18:58:10 EST, end at Fri 2022-02-11 14:23:41 EST. --\n" +
		"Feb 11 14:20:01 juju-x-5 kubelet[1234]: E0211 14:20:01.000000    1234 kubelet.go:2347] \"Container runtime network not ready\" networkReady=\"NetworkReady=false reason:NetworkPluginNotReady message:Network plugin returns error: cni plugin not initialized\"\n"
	snap := strings.ReplaceAll(journal, "kubelet[1234]", "kubelet.daemon[1234]")
	base := func(extra map[string]string) map[string]string {
		files := map[string]string{
			root + "hostname":                   "juju-x-5\n",
			root + "sos_commands/host/hostname": "juju-x-5\n",
			root + "sos_commands/date/date":     "Fri Feb 11 14:24:03 EST 2022\n",
			root + "sos_commands/kubernetes/journalctl_--no-pager_--unit_kubelet": journal,
		}
		for k, v := range extra {
			if v == "\x00delete" {
				delete(files, k)
				continue
			}
			files[k] = v
		}
		return files
	}
	type want struct {
		Node       string
		Collected  string
		FirstLine  string // the first node-log group of juju-x-5, RFC 3339 (year 1: no date tells it)
		Problems   []string
		NoKubelet  bool // juju-x-5 listed without kubelet logs
		KubeletLog bool // juju-x-5 among the kubelet log nodes
	}
	for _, c := range []struct {
		name  string
		files map[string]string
		want  want
	}{
		{name: "EST date file: 19:24:03Z, the journal in the same zone",
			files: base(map[string]string{root + "sos_commands/kubernetes/journalctl_--no-pager_--unit_kubelet": journal}),
			want:  want{Node: "juju-x-5", Collected: "2022-02-11T19:24:03Z", FirstLine: "2022-02-11T19:20:01Z", KubeletLog: true}},
		{name: "numeric -05 zone",
			files: base(map[string]string{root + "sos_commands/date/date": "Fri Feb 11 14:24:03 -05 2022\n"}),
			want:  want{Node: "juju-x-5", Collected: "2022-02-11T19:24:03Z", FirstLine: "2022-02-11T19:20:01Z", KubeletLog: true}},
		{name: "12-hour clock in UTC",
			files: base(map[string]string{root + "sos_commands/date/date": "Fri Feb 11 07:24:03 PM UTC 2022\n"}),
			want:  want{Node: "juju-x-5", Collected: "2022-02-11T19:24:03Z", FirstLine: "2022-02-11T14:20:01Z", KubeletLog: true}},
		{name: "ambiguous IST alone: UTC, and a problem naming the file",
			files: base(map[string]string{root + "sos_commands/date/date": "Fri Feb 11 19:24:03 IST 2022\n"}),
			want: want{Node: "juju-x-5", Collected: "2022-02-11T19:24:03Z", FirstLine: "2022-02-11T14:20:01Z", KubeletLog: true, Problems: []string{
				root + "sos_commands/date/date: the date file names zone IST, which is ambiguous (and the sosreport holds no date --utc, timedatectl or manifest epoch time to tell it); times are read as UTC"}}},
		{name: "ambiguous IST with date --utc: no problem",
			files: base(map[string]string{root + "sos_commands/date/date": "Sat Feb 12 00:54:03 IST 2022\n", root + "sos_commands/date/date_--utc": "Fri Feb 11 19:24:03 UTC 2022\n"}),
			want:  want{Node: "juju-x-5", Collected: "2022-02-11T19:24:03Z", FirstLine: "2022-02-11T08:50:01Z", KubeletLog: true}},
		{name: "snap kubelet (Charmed Kubernetes) read as the kubelet",
			files: base(map[string]string{root + "sos_commands/kubernetes/journalctl_--no-pager_--unit_kubelet": "\x00delete", root + "sos_commands/kubernetes/journalctl_--no-pager_--unit_snap.kubelet.daemon": snap}),
			want:  want{Node: "juju-x-5", Collected: "2022-02-11T19:24:03Z", FirstLine: "2022-02-11T19:20:01Z", KubeletLog: true}},
		{name: "empty date file: the problem names it and says why",
			files: base(map[string]string{root + "sos_commands/date/date": ""}),
			want: want{Node: "juju-x-5", FirstLine: "0001-02-11T14:20:01Z", KubeletLog: true, Problems: []string{
				root + ": the sosreport holds no readable date file (sos_commands/date/date, date, sos_commands/systemd/timedatectl) and no time in the gather: ages cannot be measured",
				root + "sos_commands/date/date: the date file is empty: the sosreport's date is not known from it"}}},
		{name: "date file that is not a date",
			files: base(map[string]string{root + "sos_commands/date/date": "date: error\n"}),
			want: want{Node: "juju-x-5", FirstLine: "0001-02-11T14:20:01Z", KubeletLog: true, Problems: []string{
				root + ": the sosreport holds no readable date file (sos_commands/date/date, date, sos_commands/systemd/timedatectl) and no time in the gather: ages cannot be measured",
				root + `sos_commands/date/date: the date file holds no date (it begins "date: error"): the sosreport's date is not known from it`}}},
		{name: "5 MiB hostname file: host unknown, said",
			files: base(map[string]string{root + "hostname": strings.Repeat("x", 5<<20), root + "sos_commands/host/hostname": "\x00delete"}),
			want: want{Collected: "2022-02-11T19:24:03Z", FirstLine: "2022-02-11T19:20:01Z", KubeletLog: true, Problems: []string{
				root + "hostname: hostname file of 5 MiB is not a host name; ignored"}}},
		{name: "hostname with a space and a control character",
			files: base(map[string]string{root + "hostname": "juju x\x07\n", root + "sos_commands/host/hostname": "\x00delete"}),
			want: want{Collected: "2022-02-11T19:24:03Z", FirstLine: "2022-02-11T19:20:01Z", KubeletLog: true, Problems: []string{
				root + `hostname: hostname file holds "juju x\a", which is not a host name; ignored`}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			writeTree(t, dir, c.files)
			g, err := Load(context.Background(), dir)
			if err != nil {
				t.Fatal(err)
			}
			var got want
			if len(g.Layouts) != 1 || g.Layouts[0].Kind != model.LayoutSosreport {
				t.Fatalf("layouts %+v", g.Layouts)
			}
			got.Node = g.Layouts[0].Node
			if !g.CollectedAt.IsZero() {
				got.Collected = g.CollectedAt.UTC().Format(time.RFC3339)
			}
			if groups := g.NodeLog["juju-x-5"]; len(groups) > 0 {
				got.FirstLine = groups[0].First.UTC().Format(time.RFC3339)
			}
			for _, p := range g.Problems {
				got.Problems = append(got.Problems, p.Path+": "+p.Error)
			}
			for _, n := range g.KubeletLogNodes {
				got.KubeletLog = got.KubeletLog || n == "juju-x-5"
			}
			for _, n := range g.Health.NodesWithoutLogs {
				got.NoKubelet = got.NoKubelet || n == "juju-x-5"
			}
			if d := cmp.Diff(c.want, got); d != "" {
				t.Errorf("(-want +got)\n%s", d)
			}
		})
	}
}
