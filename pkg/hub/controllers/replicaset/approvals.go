package replicaset

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"maps"
	"regexp"
	"strings"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/tools/cache"
	"k8s.io/klog/v2"

	fleetv1alpha1 "github.com/manifestwork/work/pkg/apis/fleet/v1alpha1"
	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
	workv1alpha1 "github.com/manifestwork/work/pkg/apis/work/v1alpha1"
	"github.com/manifestwork/work/pkg/hub/controllers/replicaset/revision"
)

// gateGroups applies the replica set's gates to one placement's groups: it
// returns the groups the strategy may roll out now (those before the first
// closed gate, in rollout order), what the placement waits for, and when to
// look again (the end of a bake). Reaching an approval gate creates its
// RolloutApproval, if the cache lacks it. Paused or held, there are no
// gates (the caller does not ask).
func (c *Controller) gateGroups(ctx context.Context, rs *workv1alpha1.ManifestWorkReplicaSet, p *plan, groups []Group,
	states []ClusterState, works map[string]*workv1.ManifestWork, now time.Time, d *deployment) ([]Group, *gateWait, time.Duration, error) {
	name := p.ref.Name
	if !d.gates.names(name) {
		return groups, nil, 0, nil
	}
	if t := p.ref.RolloutStrategy.Type; t == "" || t == workv1alpha1.All {
		return groups, &gateWait{reason: ReasonGatesIgnored, message: fmt.Sprintf(
			"placement %s rolls out with All, which has no groups to wait between: its gates are ignored", name)}, 0, nil
	}
	if bad := d.gates.invalidFor(name); len(bad) > 0 {
		return nil, &gateWait{waiting: true, reason: ReasonInvalidGate, message: fmt.Sprintf(
			"placement %s holds: %s", name, strings.Join(bad, "; "))}, 0, nil
	}
	ordered := rolloutOrder(groups, p.ref.RolloutStrategy)
	approvals := c.approvalsOf(rs, d.revision.hash)
	strategy := p.ref.RolloutStrategy
	stopped := func(n int) bool {
		decision, err := Decide(strategy, ordered[:n], states, now)
		return err == nil && decision.MaxFailuresReached
	}
	all, _ := Decide(strategy, ordered, states, now)
	key := cache.MetaObjectToName(rs)
	baked, _ := c.baked.get(key, d.revision.hash)
	cg := firstClosed(ordered, d.gates.of(name, ordered), gateInputs{
		done: progressOf(states, all.TimedOut, works, now),
		approved: func(g Group) bool {
			a := approvals[gateID(name, g.Key)]
			return a != nil && apimeta.IsStatusConditionTrue(a.Status.Conditions, fleetv1alpha1.ConditionApproved)
		},
		stopped: stopped,
		baked:   func(g Group) bool { return baked[gateID(name, g.Key)] },
		now:     now,
	})
	c.rememberBaked(key, d.revision.hash, name, baked, cg.baked)
	pass := ordered[:cg.pass]
	switch {
	case !cg.reached:
		return pass, nil, 0, nil
	case cg.kind == gateBake:
		return pass, &gateWait{waiting: true, reason: ReasonBaking, message: bakeMessage(name, cg)}, cg.left, nil
	}
	wait, err := c.awaitApproval(ctx, rs, name, cg.group, approvals[gateID(name, cg.group.Key)], d)
	return pass, wait, 0, err
}

// gateID names a placement's group in gates and approvals: <placement>/<group>.
func gateID(placement string, k GroupKey) string {
	return placement + "/" + groupID(k)
}

// rememberBaked adds the placement's groups whose bake ended to those
// remembered for the revision of hash, so that a later change in such a
// group (a Progressing flap) does not close its gate again.
func (c *Controller) rememberBaked(key cache.ObjectName, hash, placement string, had map[string]bool, ended []Group) {
	next := maps.Clone(had)
	for _, g := range ended {
		if id := gateID(placement, g.Key); !had[id] {
			if next == nil {
				next = map[string]bool{}
			}
			next[id] = true
		}
	}
	if hash != "" && len(next) > len(had) {
		c.baked.set(key, hash, next)
	}
}

// awaitApproval creates the RolloutApproval of the group for the current
// revision when the cache lacks it (a is the cached one, nil when none), and
// says that the group waits for it.
func (c *Controller) awaitApproval(ctx context.Context, rs *workv1alpha1.ManifestWorkReplicaSet, placement string, g Group,
	a *fleetv1alpha1.RolloutApproval, d *deployment) (*gateWait, error) {
	wait := &gateWait{waiting: true, reason: ReasonAwaitingApproval}
	gate := gateID(placement, g.Key)
	switch {
	case c.approvals == nil:
		wait.reason = ReasonApprovalsUnavailable
		wait.message = fmt.Sprintf("%s waits for an approval, which this hub cannot keep: %s", groupText(placement, g), c.approvalsOff)
		return wait, nil
	case d.revision.hash == "":
		wait.message = fmt.Sprintf("%s waits for an approval, which needs a revision hash: see the condition %s",
			groupText(placement, g), ConditionRevisionsRecorded)
		return wait, nil
	}
	name := approvalName(rs.Name, placement, groupID(g.Key), d.revision.hash)
	if a != nil {
		name = a.Name
	}
	wait.message = fmt.Sprintf("%s waits for the approval of %s: RolloutApproval %s; approve with: work fleet approve %s -n %s --group %s",
		groupText(placement, g), d.revision.ref(), name, rs.Name, rs.Namespace, gate)
	if a != nil {
		return wait, nil
	}
	if other, err := c.approvals.RolloutApprovals(rs.Namespace).Get(name); err == nil && !metav1.IsControlledBy(other, rs) {
		wait.reason = ReasonApprovalsUnavailable
		wait.message = fmt.Sprintf("%s waits for an approval, but the RolloutApproval %s is there and this replica set does not control it: "+
			"delete it or rename the replica set", groupText(placement, g), name)
		return wait, nil
	}
	err := c.createApproval(ctx, rs, name, fleetv1alpha1.RolloutApprovalSpec{
		ReplicaSet: rs.Name, Placement: placement, Group: groupID(g.Key), Revision: d.revision.number, RevisionHash: d.revision.hash,
	})
	switch {
	case err == nil, apierrors.IsAlreadyExists(err): // the cache is a write behind: its event queues us again
		return wait, nil
	case apierrors.IsForbidden(err), apierrors.IsNotFound(err):
		wait.reason = ReasonApprovalsUnavailable
		wait.message = fmt.Sprintf("%s waits for an approval, which this hub refused to create: %v", groupText(placement, g), err)
		return wait, nil
	}
	return wait, err
}

func (c *Controller) createApproval(ctx context.Context, rs *workv1alpha1.ManifestWorkReplicaSet, name string,
	spec fleetv1alpha1.RolloutApprovalSpec) error {
	a := &fleetv1alpha1.RolloutApproval{
		ObjectMeta: metav1.ObjectMeta{
			Namespace: rs.Namespace,
			Name:      name,
			Labels:    map[string]string{revision.ReplicaSetLabel: rs.Name, revision.HashLabel: spec.RevisionHash},
			OwnerReferences: []metav1.OwnerReference{*metav1.NewControllerRef(rs,
				workv1alpha1.SchemeGroupVersion.WithKind("ManifestWorkReplicaSet"))},
		},
		Spec: spec,
	}
	created, err := c.client.FleetV1alpha1().RolloutApprovals(rs.Namespace).Create(ctx, a, metav1.CreateOptions{})
	if err != nil {
		return err
	}
	klog.FromContext(ctx).V(2).Info("Created approval", "rolloutApproval", klog.KObj(created), "group", spec.Placement+"/"+spec.Group)
	return nil
}

// approvalsOf are the cached approvals of the replica set for the revision
// of hash, by <placement>/<group>; nil when there are none. Only an
// approval the replica set controls counts.
func (c *Controller) approvalsOf(rs *workv1alpha1.ManifestWorkReplicaSet, hash string) map[string]*fleetv1alpha1.RolloutApproval {
	if c.approvals == nil || hash == "" {
		return nil
	}
	list, err := c.approvals.RolloutApprovals(rs.Namespace).List(ApprovalSelector(rs.Name, hash))
	if err != nil {
		return nil
	}
	return ApprovalsByGate(rs, hash, list)
}

// ApprovalSelector selects the approvals of the replica set for the
// revision of hash, by their labels.
func ApprovalSelector(replicaSet, hash string) labels.Selector {
	return labels.SelectorFromSet(labels.Set{revision.ReplicaSetLabel: replicaSet, revision.HashLabel: hash})
}

// ApprovalsByGate keys the approvals of rs for the revision of hash by
// their gate, <placement>/<group>. Only an approval that rs controls and
// whose spec names rs and hash counts: the controller and `work fleet
// approve` find approvals by this one rule.
func ApprovalsByGate(rs *workv1alpha1.ManifestWorkReplicaSet, hash string, approvals []*fleetv1alpha1.RolloutApproval) map[string]*fleetv1alpha1.RolloutApproval {
	var out map[string]*fleetv1alpha1.RolloutApproval
	for _, a := range approvals {
		if a.Spec.ReplicaSet != rs.Name || a.Spec.RevisionHash != hash || !metav1.IsControlledBy(a, rs) {
			continue
		}
		if out == nil {
			out = map[string]*fleetv1alpha1.RolloutApproval{}
		}
		if id := a.Spec.Placement + "/" + a.Spec.Group; out[id] == nil {
			out[id] = a
		}
	}
	return out
}

// maxApprovalName bounds an approval's name (a DNS subdomain).
const maxApprovalName = 253

var notInName = regexp.MustCompile(`[^a-z0-9.-]+`)

// approvalName is <replicaset>-<placement>-<group>-<hash>-<5 hex>,
// lowercased, with what a name may not hold turned to "-", cut to fit
// before the hash. The 5 hex digits hash the replica set, placement and
// group, so that "app"+"eu-prod" and "app-eu"+"prod" never share a name.
func approvalName(replicaSet, placement, group, hash string) string {
	sum := sha256.Sum256([]byte(replicaSet + "/" + placement + "/" + group))
	suffix := "-" + hash + "-" + hex.EncodeToString(sum[:])[:5]
	prefix := notInName.ReplaceAllString(strings.ToLower(replicaSet+"-"+placement+"-"+group), "-")
	prefix = strings.TrimRight(workv1.Shorten(prefix, maxApprovalName-len(suffix), ""), "-.")
	return prefix + suffix
}

// replicaSetOfApproval maps a RolloutApproval to the replica set its label
// names, in its namespace.
func replicaSetOfApproval(obj runtime.Object) []string {
	a, err := apimeta.Accessor(obj)
	if err != nil || a.GetLabels()[revision.ReplicaSetLabel] == "" {
		return nil
	}
	return []string{cache.NewObjectName(a.GetNamespace(), a.GetLabels()[revision.ReplicaSetLabel]).String()}
}
