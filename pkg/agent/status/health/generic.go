package health

// genericRule judges kinds without a rule of their own by the conditions
// most controllers of custom resources follow (cert-manager, Flux, Crossplane,
// Cluster API, ...): Stalled and Reconciling ("abnormal-true" conditions),
// then Ready, else Available; and observedGeneration, of the status or of
// the condition itself.
var genericRule = Rule{
	Fields: [][]string{{"status", "observedGeneration"}, {"status", "conditions"}},
	Judge:  judgeGeneric,
}

func judgeGeneric(o Object) Verdict {
	// Many custom resources have no status.observedGeneration; only one
	// that is there tells.
	if msg, pending := o.generationPending(); pending && o.Has("status", "observedGeneration") {
		return progressing("%s is %s", o.GetKind(), msg)
	}
	if stalled := o.Condition("Stalled"); stalled.Is("True") {
		return degraded("Stalled: %s", stalled.Explain())
	}
	if reconciling := o.Condition("Reconciling"); reconciling.Is("True") {
		return progressing("Reconciling: %s", reconciling.Explain())
	}
	for _, t := range []string{"Ready", "Available"} {
		c := o.Condition(t)
		if !c.Found {
			continue
		}
		if gen := o.GetGeneration(); c.ObservedGeneration != 0 && gen != 0 && c.ObservedGeneration < gen {
			return progressing("%s is waiting for the controller to observe generation %d (%s is of generation %d)", o.GetKind(), gen, t, c.ObservedGeneration)
		}
		switch c.Status {
		case "True":
			return healthy("%s", explainOr(c, t+" is True"))
		case "False":
			return degraded("%s is False: %s", t, explainOr(c, "no reason given"))
		default:
			return progressing("%s is %s: %s", t, statusOr(c.Status), explainOr(c, "no reason given"))
		}
	}
	return NoHealthCheck(o.GetKind())
}

func explainOr(c Cond, def string) string {
	if e := c.Explain(); e != "" {
		return e
	}
	return def
}

func statusOr(s string) string {
	if s == "" {
		return "Unknown"
	}
	return s
}
