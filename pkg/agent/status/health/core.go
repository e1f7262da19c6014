package health

import "strings"

var pvcRule = Rule{
	Resource: "persistentvolumeclaims",
	Fields:   [][]string{{"status", "phase"}},
	Judge:    judgePVC,
}

func judgePVC(o Object) Verdict {
	phase := o.String("status", "phase")
	switch phase {
	case "Bound":
		return healthy("PersistentVolumeClaim %s is Bound", o.GetName())
	case "Lost":
		return degraded("PersistentVolumeClaim %s is Lost: its PersistentVolume no longer exists", o.GetName())
	case "":
		phase = "Pending"
	}
	return progressing("PersistentVolumeClaim %s is %s", o.GetName(), phase)
}

var serviceRule = Rule{
	Resource: "services",
	Fields:   [][]string{{"spec", "type"}, {"status", "loadBalancer"}},
	Judge:    judgeService,
}

// judgeService: only a Service of type LoadBalancer waits for something, an
// address from the cloud provider.
func judgeService(o Object) Verdict {
	t := o.String("spec", "type")
	if t != "LoadBalancer" {
		if t == "" {
			t = "ClusterIP"
		}
		return healthy("Service of type %s has no address to wait for", t)
	}
	if addrs := addresses(o); addrs != "" {
		return healthy("Load balancer address: %s", addrs)
	}
	return progressing("Service %s is waiting for a load balancer address", o.GetName())
}

var ingressRule = Rule{
	Resource: "ingresses",
	Fields:   [][]string{{"status", "loadBalancer"}},
	Judge:    judgeIngress,
}

func judgeIngress(o Object) Verdict {
	if addrs := addresses(o); addrs != "" {
		return healthy("Ingress address: %s", addrs)
	}
	return progressing("Ingress %s has no address yet", o.GetName())
}

// addresses lists the IPs and host names of status.loadBalancer.ingress.
func addresses(o Object) string {
	var out []string
	for _, in := range o.Maps("status", "loadBalancer", "ingress") {
		if ip := in.String("ip"); ip != "" {
			out = append(out, ip)
		} else if host := in.String("hostname"); host != "" {
			out = append(out, host)
		}
	}
	return strings.Join(out, ", ")
}

var namespaceRule = Rule{
	Resource: "namespaces",
	Fields:   [][]string{{"status", "phase"}, {"status", "conditions"}},
	Judge:    judgeNamespace,
}

func judgeNamespace(o Object) Verdict {
	switch phase := o.String("status", "phase"); phase {
	case "Active", "":
		return healthy("Namespace is Active")
	case "Terminating":
		for _, t := range []string{"NamespaceDeletionContentFailure", "NamespaceDeletionDiscoveryFailure", "NamespaceFinalizersRemaining"} {
			if c := o.Condition(t); c.Is("True") {
				return degraded("Namespace is Terminating: %s", c.Explain())
			}
		}
		return progressing("Namespace is Terminating")
	default:
		return progressing("Namespace is %s", phase)
	}
}
