package health

var crdRule = Rule{
	Resource: "customresourcedefinitions",
	Fields:   [][]string{{"status", "conditions"}},
	Judge:    judgeCRD,
}

// judgeCRD: a CustomResourceDefinition whose names were refused never serves;
// one not yet established will.
func judgeCRD(o Object) Verdict {
	if names := o.Condition("NamesAccepted"); names.Is("False") {
		return degraded("Names not accepted: %s", names.Explain())
	}
	established := o.Condition("Established")
	if !established.Is("True") {
		if established.Found {
			return progressing("Not established yet: %s", established.Explain())
		}
		return progressing("Not established yet")
	}
	return healthy("Established")
}

var apiServiceRule = Rule{
	Resource: "apiservices",
	Fields:   [][]string{{"status", "conditions"}},
	Judge:    judgeAPIService,
}

func judgeAPIService(o Object) Verdict {
	available := o.Condition("Available")
	switch {
	case available.Is("True"):
		return healthy("APIService is available")
	case available.Is("False"):
		return degraded("APIService is not available: %s", available.Explain())
	}
	return progressing("APIService has not reported its availability yet")
}
