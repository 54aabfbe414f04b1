// Package k8s holds the Kubernetes manifests of tierfetch (no Go code) and a
// test that they decode strictly into the Kubernetes API types, so that a
// misspelt field fails CI instead of being ignored by kubectl.
package k8s

import (
	"bytes"
	"fmt"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/yaml"
)

// decodeManifest decodes each document of a multi-document YAML file
// strictly (unknown or duplicate fields are errors) into its kind's type.
func decodeManifest(t *testing.T, path string) []any {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var objs []any
	for i, doc := range regexp.MustCompile(`(?m)^---\s*$`).Split(string(data), -1) {
		if strings.TrimSpace(regexp.MustCompile(`(?m)^\s*#.*$`).ReplaceAllString(doc, "")) == "" {
			continue
		}
		var tm metav1.TypeMeta
		if err := yaml.Unmarshal([]byte(doc), &tm); err != nil {
			t.Fatalf("%s document %d: %v", path, i, err)
		}
		var obj any
		switch tm.APIVersion + " " + tm.Kind {
		case "batch/v1 Job":
			obj = &batchv1.Job{}
		case "v1 PersistentVolumeClaim":
			obj = &corev1.PersistentVolumeClaim{}
		default:
			t.Fatalf("%s document %d: unexpected %s %s", path, i, tm.APIVersion, tm.Kind)
		}
		if err := yaml.UnmarshalStrict([]byte(doc), obj); err != nil {
			t.Fatalf("%s document %d (%s): %v", path, i, tm.Kind, err)
		}
		objs = append(objs, obj)
	}
	return objs
}

// TestSweepJobManifest decodes deploy/k8s/sweep-job.yaml strictly and checks
// what the sweep needs of it: a shard per completion index, a grace period
// for the clean stop on SIGTERM, and the exit codes mapped as docs/reference/exit-codes.md says.
func TestSweepJobManifest(t *testing.T) {
	var job *batchv1.Job
	for _, obj := range decodeManifest(t, "sweep-job.yaml") {
		if j, ok := obj.(*batchv1.Job); ok {
			job = j
		}
	}
	if job == nil {
		t.Fatal("no Job in sweep-job.yaml")
	}
	spec := job.Spec.Template.Spec
	if g := spec.TerminationGracePeriodSeconds; g == nil || *g < 30 {
		t.Errorf("terminationGracePeriodSeconds %v: want at least 30 s for a sweep to stop at a seed boundary", g)
	}
	if len(spec.Containers) != 1 {
		t.Fatalf("%d containers, want 1", len(spec.Containers))
	}
	args := strings.Join(spec.Containers[0].Args, " ")
	if job.Spec.Completions == nil || !strings.Contains(args, fmt.Sprintf("--shard=$(JOB_COMPLETION_INDEX)/%d", *job.Spec.Completions)) {
		t.Errorf("the args %q must split the sweep into completions (%v) shards", args, job.Spec.Completions)
	}
	actions := map[int32]batchv1.PodFailurePolicyAction{}
	ignoresDisruption := false
	for _, r := range job.Spec.PodFailurePolicy.Rules {
		if r.OnExitCodes != nil {
			for _, code := range r.OnExitCodes.Values {
				actions[code] = r.Action
			}
		}
		for _, c := range r.OnPodConditions {
			if c.Type == corev1.DisruptionTarget && r.Action == batchv1.PodFailurePolicyActionIgnore {
				ignoresDisruption = true
			}
		}
	}
	for code, want := range map[int32]batchv1.PodFailurePolicyAction{1: batchv1.PodFailurePolicyActionFailIndex,
		3: batchv1.PodFailurePolicyActionFailIndex, 4: batchv1.PodFailurePolicyActionFailIndex, 2: batchv1.PodFailurePolicyActionFailJob} {
		if actions[code] != want {
			t.Errorf("exit code %d: action %q, want %q", code, actions[code], want)
		}
	}
	if !ignoresDisruption {
		t.Error("an evicted pod (DisruptionTarget) should be run again without counting as a failure")
	}
	if slices.Contains(spec.Containers[0].Command, "sh") {
		t.Error("the image needs no shell")
	}
}

// TestExploreJobManifest decodes deploy/k8s/explore-job.yaml strictly and
// checks a shard per completion index, results on the shared volume and
// the exit codes mapped as for sweeps.
func TestExploreJobManifest(t *testing.T) {
	var job *batchv1.Job
	for _, obj := range decodeManifest(t, "explore-job.yaml") {
		if j, ok := obj.(*batchv1.Job); ok {
			job = j
		}
	}
	if job == nil {
		t.Fatal("no Job in explore-job.yaml")
	}
	spec := job.Spec.Template.Spec
	if len(spec.Containers) != 1 {
		t.Fatalf("%d containers, want 1", len(spec.Containers))
	}
	args := strings.Join(spec.Containers[0].Args, " ")
	if !strings.HasPrefix(args, "explore ") {
		t.Errorf("args %q: want simrun explore", args)
	}
	if job.Spec.Completions == nil || !strings.Contains(args, fmt.Sprintf("--shard=$(JOB_COMPLETION_INDEX)/%d", *job.Spec.Completions)) {
		t.Errorf("the args %q must split the search into completions (%v) shards", args, job.Spec.Completions)
	}
	if !strings.Contains(args, "--jsonl=/results/") {
		t.Errorf("the args %q must write the shard file to the shared volume", args)
	}
	// The process's memory budget (--max-memory bounds it: explore.RuntimeLimit)
	// must fit the pod's limit, or the pod is killed mid-search.
	var budget int64
	if _, err := fmt.Sscanf(args[strings.Index(args, "--max-memory=")+len("--max-memory="):], "%d", &budget); err != nil {
		t.Errorf("the args %q must bound the search's memory (--max-memory=MiB): %v", args, err)
	}
	if limit := spec.Containers[0].Resources.Limits.Memory().Value(); budget<<20 > limit {
		t.Errorf("--max-memory=%d MiB does not fit the pod's memory limit (%d bytes)", budget, limit)
	}
	actions := map[int32]batchv1.PodFailurePolicyAction{}
	for _, r := range job.Spec.PodFailurePolicy.Rules {
		if r.OnExitCodes != nil {
			for _, code := range r.OnExitCodes.Values {
				actions[code] = r.Action
			}
		}
	}
	for code, want := range map[int32]batchv1.PodFailurePolicyAction{1: batchv1.PodFailurePolicyActionFailIndex,
		3: batchv1.PodFailurePolicyActionFailIndex, 4: batchv1.PodFailurePolicyActionFailIndex, 2: batchv1.PodFailurePolicyActionFailJob} {
		if actions[code] != want {
			t.Errorf("exit code %d: action %q, want %q", code, actions[code], want)
		}
	}
}

// TestStrictDecodingCatchesTypos: the strict decoder the test relies on
// refuses a misspelt field.
func TestStrictDecodingCatchesTypos(t *testing.T) {
	data, err := os.ReadFile("sweep-job.yaml")
	if err != nil {
		t.Fatal(err)
	}
	bad := bytes.Replace(data, []byte("terminationGracePeriodSeconds"), []byte("terminationGracePeriodSecond"), 1)
	doc := regexp.MustCompile(`(?m)^---\s*$`).Split(string(bad), -1)[1]
	if err := yaml.UnmarshalStrict([]byte(doc), &batchv1.Job{}); err == nil {
		t.Error("a misspelt field decoded without an error")
	}
}
