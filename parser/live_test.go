package parser

import (
	"context"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/mgtriage/mgtriage/parser/model"
	"github.com/mgtriage/mgtriage/parser/podstatus"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// TestLiveOverviewOfTheSample loads the sample gather with a Live read
// while the load runs (as the command line's overview does), and checks
// that the overview at the end says what the loaded gather says, and that
// the Live changes nothing the load returns.
func TestLiveOverviewOfTheSample(t *testing.T) {
	without, err := Load(context.Background(), sampleGather)
	if err != nil {
		t.Fatal(err)
	}
	live := new(Live)
	stop := make(chan struct{})
	var reader sync.WaitGroup
	reader.Add(1)
	go func() { // a view reading while the workers write
		defer reader.Done()
		for {
			select {
			case <-stop:
				return
			default:
				live.Overview(3)
				time.Sleep(time.Millisecond)
			}
		}
	}()
	g, err := LoadWith(context.Background(), sampleGather, Options{Live: live})
	close(stop)
	reader.Wait()
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(gatherRows(without), gatherRows(g)); diff != "" {
		t.Errorf("a load with a Live differs from one without (-without +with):\n%s", diff)
	}

	got := live.Overview(1000)
	want := Overview{Version: g.ClusterVersion, Pods: len(g.Pods), Operators: len(g.Operators)}
	got.Desired, got.Seq = "", 0
	for _, n := range g.Nodes {
		if n.JournalOnly {
			continue
		}
		want.Nodes++
		if i := slices.IndexFunc(n.Object.Status.Conditions, func(c corev1.NodeCondition) bool { return c.Type == corev1.NodeReady }); i >= 0 &&
			n.Object.Status.Conditions[i].Status != corev1.ConditionTrue {
			want.NotReadyNames = append(want.NotReadyNames, n.Object.Name)
		}
	}
	for _, op := range g.Operators {
		if op.Degraded == "True" {
			want.Degraded = append(want.Degraded, op.Name)
		}
		if op.Available != "True" {
			want.Unavailable = append(want.Unavailable, op.Name)
		}
	}
	for _, p := range g.Pods {
		if !p.Healthy() {
			want.UnhealthyPods = append(want.UnhealthyPods, LivePod{p.Object.Namespace, p.Object.Name, p.Columns.Status})
		}
	}
	slices.Sort(want.NotReadyNames)
	slices.Sort(want.Degraded)
	slices.Sort(want.Unavailable)
	slices.SortFunc(want.UnhealthyPods, func(a, b LivePod) int {
		if a.Namespace != b.Namespace {
			return strings.Compare(a.Namespace, b.Namespace)
		}
		return strings.Compare(a.Name, b.Name)
	})
	want.NotReady, want.DegradedCount, want.UnavailableCount, want.Unhealthy = len(want.NotReadyNames), len(want.Degraded), len(want.Unavailable), len(want.UnhealthyPods)
	if want.Unhealthy == 0 || want.DegradedCount+want.UnavailableCount == 0 || want.Nodes == 0 {
		t.Fatalf("the sample no longer has what the test reads: %+v", want)
	}
	if diff := cmp.Diff(want, got, cmpopts.EquateEmpty()); diff != "" {
		t.Errorf("overview at the end of the load (-the gather +the overview):\n%s", diff)
	}
	if few := live.Overview(1); len(few.UnhealthyPods) != 1 || few.Unhealthy != want.Unhealthy {
		t.Errorf("Overview(1): %d pods listed of %d, want 1 of %d", len(few.UnhealthyPods), few.Unhealthy, want.Unhealthy)
	}
}

func TestLiveIsInertWhenNil(t *testing.T) {
	var l *Live
	l.addPods([]*model.Pod{{}})
	l.addNode(&corev1.Node{})
	l.addOperators([]model.Operator{{Name: "x"}})
	if o := l.Overview(3); !o.Empty() {
		t.Errorf("nil Live: %+v", o)
	}
}

// TestLivePodCopies: a pod read twice (pods.yaml, then its own file) counts
// once, with the state of the copy read last.
func TestLivePodCopies(t *testing.T) {
	l := new(Live)
	crash := crashPod("shop", "catalog-1")
	l.addPods([]*model.Pod{{Object: *crash}})
	l.addPods([]*model.Pod{{Object: *crash}})
	if o := l.Overview(3); o.Pods != 1 || o.Unhealthy != 1 || o.UnhealthyPods[0] != (LivePod{"shop", "catalog-1", "CrashLoopBackOff"}) {
		t.Errorf("twice the same failing pod: %+v", o)
	}
	ok := runningPod("shop", "catalog-1")
	l.addPods([]*model.Pod{{Object: *ok}})
	if o := l.Overview(3); o.Pods != 1 || o.Unhealthy != 0 || len(o.UnhealthyPods) != 0 {
		t.Errorf("the pod read again running: %+v", o)
	}
}

func crashPod(ns, name string) *corev1.Pod {
	p := runningPod(ns, name)
	p.Status.ContainerStatuses[0].Ready = false
	p.Status.ContainerStatuses[0].State = corev1.ContainerState{Waiting: &corev1.ContainerStateWaiting{Reason: "CrashLoopBackOff"}}
	return p
}

func runningPod(ns, name string) *corev1.Pod {
	return &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name},
		Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "app"}}},
		Status: corev1.PodStatus{Phase: corev1.PodRunning, ContainerStatuses: []corev1.ContainerStatus{
			{Name: "app", Ready: true, State: corev1.ContainerState{Running: &corev1.ContainerStateRunning{}}},
		}},
	}
}

// TestPlainlyRunningIsHealthy: the look the load takes at every pod never
// calls healthy a pod that the printer of any release does not (it only
// spares the columns of the pods that plainly are), over pods made of every
// combination of the fields it reads.
func TestPlainlyRunningIsHealthy(t *testing.T) {
	always := corev1.ContainerRestartPolicyAlways
	now := metav1.Now()
	states := []corev1.ContainerStatus{
		{Ready: true, State: corev1.ContainerState{Running: &corev1.ContainerStateRunning{}}},
		{Ready: false, State: corev1.ContainerState{Running: &corev1.ContainerStateRunning{}}},
		{Ready: true, State: corev1.ContainerState{Running: &corev1.ContainerStateRunning{}, Waiting: &corev1.ContainerStateWaiting{Reason: "CrashLoopBackOff"}}},
		{Ready: true, State: corev1.ContainerState{Running: &corev1.ContainerStateRunning{}, Terminated: &corev1.ContainerStateTerminated{ExitCode: 1}}},
		{State: corev1.ContainerState{Waiting: &corev1.ContainerStateWaiting{Reason: "ImagePullBackOff"}}},
		{State: corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{Reason: "Completed"}}},
		{State: corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{ExitCode: 137, Reason: "OOMKilled"}}},
	}
	inits := [][]corev1.ContainerStatus{
		nil,
		{{Name: "init", State: corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{Reason: "Completed"}}}},
		{{Name: "init", State: corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{ExitCode: 1, Reason: "Error"}}}},
		{{Name: "init", State: corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{Signal: 9}}}},
		{{Name: "init", Ready: true, Started: new(bool), State: corev1.ContainerState{Running: &corev1.ContainerStateRunning{}}}},
	}
	versions := append([]podstatus.Version{{}}, podstatus.PrinterReleases...)
	plain := 0
	for _, phase := range []corev1.PodPhase{corev1.PodRunning, corev1.PodSucceeded, corev1.PodPending, ""} {
		for _, reason := range []string{"", "NodeLost"} {
			for _, deleted := range []*metav1.Time{nil, &now} {
				for _, gated := range []bool{false, true} {
					for _, sidecar := range []bool{false, true} {
						for ii, init := range inits {
							for _, a := range states {
								for bi := -1; bi < len(states); bi++ {
									p := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "p", DeletionTimestamp: deleted}}
									p.Status.Phase, p.Status.Reason = phase, reason
									if gated {
										p.Status.Conditions = []corev1.PodCondition{{Type: corev1.PodScheduled, Reason: corev1.PodReasonSchedulingGated}}
									}
									p.Spec.Containers = []corev1.Container{{Name: "a"}}
									a.Name = "a"
									p.Status.ContainerStatuses = []corev1.ContainerStatus{a}
									if bi >= 0 {
										b := states[bi]
										b.Name = "b"
										p.Spec.Containers = append(p.Spec.Containers, corev1.Container{Name: "b"})
										p.Status.ContainerStatuses = append(p.Status.ContainerStatuses, b)
									}
									if init != nil {
										c := corev1.Container{Name: "init"}
										if sidecar {
											c.RestartPolicy = &always
										}
										p.Spec.InitContainers = []corev1.Container{c}
										p.Status.InitContainerStatuses = init
									}
									if !plainlyRunning(p) {
										continue
									}
									plain++
									for _, v := range versions {
										if c := podstatus.Compute(p, now.Time, v); !c.Healthy() {
											t.Errorf("printer %s: plainly running but %s %s (phase %q reason %q deleted %v gated %v sidecar %v init %d)",
												v, c.Status, c.Ready, phase, reason, deleted != nil, gated, sidecar, ii)
										}
									}
								}
							}
						}
					}
				}
			}
		}
	}
	if plain == 0 {
		t.Error("no pod was plainly running: the test tests nothing")
	}
}
