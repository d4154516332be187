package rules

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/mgtriage/mgtriage/parser/model"
)

// joinImageRepoNeighbour runs the imageRepoNeighbour join for one pod and hit
// (doc and reads: joinRegistry).
func joinImageRepoNeighbour(c *evalContext, p *model.Pod, h *hit) joinResult {
	repo := h.Vars["Repository"]
	if repo == "" {
		repo = h.Vars["Image"]
	}
	repo = repoName(repo)
	if repo == "" {
		return joinResult{}
	}
	owner, _ := repoOwner(repo)
	// The repositories the gather's containers did pull: an imageID says
	// the runtime holds the image.
	pulled := map[string]*model.Pod{}
	for _, q := range c.gather.Pods {
		statuses := append(slices.Clone(q.Object.Status.InitContainerStatuses), q.Object.Status.ContainerStatuses...)
		for _, st := range statuses {
			if st.ImageID == "" || st.Image == "" {
				continue
			}
			r := repoName(st.Image)
			if _, seen := pulled[r]; !seen {
				pulled[r] = q
			}
		}
	}
	if _, ok := pulled[repo]; ok {
		return joinResult{} // the node pulled it for another pod: credentials, not the name
	}
	var repos, owners []string
	ownerRepo := map[string]string{}
	for r := range pulled {
		repos = append(repos, r)
		if o, ok := repoOwner(r); ok {
			owners = append(owners, o)
			ownerRepo[o] = r
		}
	}
	sort.Strings(repos)
	sort.Strings(owners)
	near, what := "", ""
	if o := model.NearestName(owner, owners); owner != "" && o != "" && o != owner {
		near, what = ownerRepo[o], fmt.Sprintf("account %s, a near spelling of %s", o, owner)
	} else if r := model.NearestName(repo, repos); r != "" {
		near, what = r, fmt.Sprintf("repository %s, a near spelling of %s", r, repo)
	}
	if near == "" {
		return joinResult{}
	}
	q := pulled[near]
	res := joinResult{Decided: true}
	res.Cause = fmt.Sprintf("Another container of the gather was pulled from the %s (pod %s/%s runs %s): the reference %s is most likely misspelt, naming a repository that does not exist.",
		what, q.Object.Namespace, q.Object.Name, near, repo)
	res.Fix = fmt.Sprintf("Compare %s with %s, which does pull.", repo, near)
	res.Evidence = append(res.Evidence, Evidence{Source: q.Source, Kind: EvidenceStatus, Text: fmt.Sprintf("pod %s/%s pulled %s", q.Object.Namespace, q.Object.Name, near), Summary: true})
	return res
}

// repoName is an image reference's repository as Docker's messages name it:
// without tag or digest, without the docker.io host and its library/
// prefix ("docker.io/library/nginx:1" → "nginx").
func repoName(image string) string {
	image = strings.TrimSpace(image)
	if i := strings.Index(image, "@"); i >= 0 {
		image = image[:i]
	}
	if i := strings.LastIndex(image, ":"); i >= 0 && !strings.Contains(image[i:], "/") {
		image = image[:i]
	}
	for _, p := range []string{"docker.io/", "index.docker.io/", "registry-1.docker.io/"} {
		image = strings.TrimPrefix(image, p)
	}
	return strings.TrimPrefix(image, "library/")
}

// repoOwner is the part of a repository before its image name (the Docker
// Hub account, or registry/organisation), and false for a bare name.
func repoOwner(repo string) (string, bool) {
	i := strings.LastIndex(repo, "/")
	if i <= 0 {
		return "", false
	}
	return repo[:i], true
}
