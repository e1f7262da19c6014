package replicaset

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
)

// cond is a condition observed at generation gen that turned ago before now.
func cond(t string, s metav1.ConditionStatus, gen int64, ago time.Duration) metav1.Condition {
	return metav1.Condition{Type: t, Status: s, Reason: "R", ObservedGeneration: gen, LastTransitionTime: metav1.NewTime(now.Add(-ago))}
}

func TestWorkState(t *testing.T) {
	const gen = 2
	applied := cond(workv1.WorkApplied, metav1.ConditionTrue, gen, time.Hour)
	cases := []struct {
		name  string
		conds []metav1.Condition
		want  State
		ago   time.Duration // of Since, when the state has one
	}{
		{name: "no conditions", want: ToApply},
		{name: "applied, no Progressing", conds: []metav1.Condition{applied}, want: ToApply},
		{name: "Applied of the previous generation",
			conds: []metav1.Condition{cond(workv1.WorkApplied, metav1.ConditionTrue, gen-1, time.Hour), cond(workv1.WorkProgressing, metav1.ConditionFalse, gen, time.Minute)},
			want:  ToApply},
		{name: "Applied=False",
			conds: []metav1.Condition{cond(workv1.WorkApplied, metav1.ConditionFalse, gen, time.Hour), cond(workv1.WorkProgressing, metav1.ConditionFalse, gen, time.Minute)},
			want:  ToApply},
		{name: "Progressing of the previous generation",
			conds: []metav1.Condition{applied, cond(workv1.WorkProgressing, metav1.ConditionFalse, gen-1, time.Minute)},
			want:  ToApply},
		{name: "Degraded of the previous generation",
			conds: []metav1.Condition{applied, cond(workv1.WorkProgressing, metav1.ConditionFalse, gen, time.Minute), cond(workv1.WorkDegraded, metav1.ConditionFalse, gen-1, time.Minute)},
			want:  ToApply},
		{name: "Progressing=False: succeeded",
			conds: []metav1.Condition{applied, cond(workv1.WorkProgressing, metav1.ConditionFalse, gen, 3*time.Minute)},
			want:  Succeeded, ago: 3 * time.Minute},
		{name: "Progressing=False, Degraded=True: succeeded",
			conds: []metav1.Condition{applied, cond(workv1.WorkProgressing, metav1.ConditionFalse, gen, 3*time.Minute), cond(workv1.WorkDegraded, metav1.ConditionTrue, gen, time.Minute)},
			want:  Succeeded, ago: 3 * time.Minute},
		{name: "Progressing=True: progressing",
			conds: []metav1.Condition{applied, cond(workv1.WorkProgressing, metav1.ConditionTrue, gen, 2*time.Minute)},
			want:  Progressing, ago: 2 * time.Minute},
		{name: "Progressing=Unknown: progressing",
			conds: []metav1.Condition{applied, cond(workv1.WorkProgressing, metav1.ConditionUnknown, gen, 2*time.Minute)},
			want:  Progressing, ago: 2 * time.Minute},
		{name: "Progressing=True, Degraded=False: progressing",
			conds: []metav1.Condition{applied, cond(workv1.WorkProgressing, metav1.ConditionTrue, gen, 2*time.Minute), cond(workv1.WorkDegraded, metav1.ConditionFalse, gen, time.Minute)},
			want:  Progressing, ago: 2 * time.Minute},
		{name: "Progressing=True, Degraded=True: failed since Degraded turned",
			conds: []metav1.Condition{applied, cond(workv1.WorkProgressing, metav1.ConditionTrue, gen, 5*time.Minute), cond(workv1.WorkDegraded, metav1.ConditionTrue, gen, time.Minute)},
			want:  Failed, ago: time.Minute},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			w := &workv1.ManifestWork{ObjectMeta: metav1.ObjectMeta{Generation: gen}, Status: workv1.ManifestWorkStatus{Conditions: tc.conds}}
			got, since := WorkState(w)
			assert.Equal(t, tc.want, got)
			if tc.want == ToApply {
				assert.Nil(t, since)
				return
			}
			if assert.NotNil(t, since) {
				assert.Equal(t, now.Add(-tc.ago), *since)
			}
		})
	}
}
