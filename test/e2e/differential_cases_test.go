package e2e

import "strings"

// The cases of the differential test (differential_test.go), as data: the
// works' specs in YAML, $NS the case's namespace on the managed cluster.

// manifests is a work spec with the manifests given (a YAML list) and more
// of the spec after them (YAML at the level of workload, or "").
func manifests(list string, rest ...string) string {
	var b strings.Builder
	b.WriteString("workload:\n  manifests:\n")
	for line := range strings.SplitSeq(strings.Trim(list, "\n"), "\n") {
		b.WriteString("  " + line + "\n")
	}
	for _, r := range rest {
		b.WriteString(strings.Trim(r, "\n") + "\n")
	}
	return b.String()
}

// version sets the $V of a manifest template.
func version(template, v string) string { return strings.ReplaceAll(template, "$V", v) }

// webhook is a webhook configuration of a kind (Validating or Mutating)
// labelled v=$V. It matches a resource that does not exist, so that it never
// stands in anyone's way.
func webhook(kind, v string) string {
	lower := strings.ToLower(kind)
	return version(strings.NewReplacer("$KIND", kind, "$LOWER", lower).Replace(`
- apiVersion: admissionregistration.k8s.io/v1
  kind: $KINDWebhookConfiguration
  metadata: {name: $NS-$LOWER, labels: {v: "$V"}}
  webhooks:
  - name: $LOWER.$NS.example.com
    clientConfig: {service: {name: hook, namespace: $NS, path: /$LOWER}}
    rules: [{apiGroups: [example.invalid], apiVersions: [v1], operations: [CREATE], resources: [nothings]}]
    sideEffects: None
    admissionReviewVersions: [v1]
    failurePolicy: Ignore`), v)
}

// Manifest templates the cases share; $V is set by version.
const (
	cmV = `
- {apiVersion: v1, kind: ConfigMap, metadata: {name: cm, namespace: $NS}, data: {a: "$V"}}`
	// A ConfigMap of two keys; $V is b's value.
	cmABV = `
- {apiVersion: v1, kind: ConfigMap, metadata: {name: cm, namespace: $NS}, data: {a: "1", b: "$V"}}`
	cmB = `
- {apiVersion: v1, kind: ConfigMap, metadata: {name: cm-b, namespace: $NS}, data: {b: "1"}}`
	deploymentV = `
- apiVersion: apps/v1
  kind: Deployment
  metadata: {name: web, namespace: $NS, labels: {app: web}}
  spec:
    replicas: $V
    selector: {matchLabels: {app: web}}
    template:
      metadata: {labels: {app: web}}
      spec: {containers: [{name: main, image: "fake-image:$V"}]}`
	service = `
- apiVersion: v1
  kind: Service
  metadata: {name: web, namespace: $NS}
  spec: {selector: {app: web}, ports: [{name: http, port: 80, targetPort: 8080}]}`
	job = `
- apiVersion: batch/v1
  kind: Job
  metadata: {name: once, namespace: $NS}
  spec:
    manualSelector: true
    selector: {matchLabels: {job: once}}
    template:
      metadata: {labels: {job: once}}
      spec: {restartPolicy: Never, containers: [{name: main, image: "fake-image:1"}]}`
	serviceAccountV = `
- {apiVersion: v1, kind: ServiceAccount, metadata: {name: sa, namespace: $NS, labels: {v: "$V"}}}`
	podV = `
- apiVersion: v1
  kind: Pod
  metadata: {name: pod, namespace: $NS, labels: {v: "$V"}}
  spec: {containers: [{name: main, image: "fake-image:$V"}]}`
	namespaceV = `
- {apiVersion: v1, kind: Namespace, metadata: {name: $NS-extra, labels: {v: "$V"}}}`
	aggregatedRoleV = `
- apiVersion: rbac.authorization.k8s.io/v1
  kind: ClusterRole
  metadata: {name: $NS-aggregate, labels: {v: "$V"}}
  aggregationRule: {clusterRoleSelectors: [{matchLabels: {$NS/aggregate: "true"}}]}`
	aggregatedPart = `
- apiVersion: rbac.authorization.k8s.io/v1
  kind: ClusterRole
  metadata: {name: $NS-part, labels: {$NS/aggregate: "true"}}
  rules: [{apiGroups: [""], resources: [configmaps], verbs: [get]}]`
	secretV = `
- {apiVersion: v1, kind: Secret, metadata: {name: s, namespace: $NS, labels: {v: "$V"}}, type: Opaque, stringData: {password: hunter2}}`
	secretOtherType = `
- {apiVersion: v1, kind: Secret, metadata: {name: s, namespace: $NS, labels: {v: "1"}}, type: example.com/other, stringData: {password: hunter2}}`
	// A CRD of the case's own group, and an instance of it.
	gadgetCRD = `
- apiVersion: apiextensions.k8s.io/v1
  kind: CustomResourceDefinition
  metadata: {name: gadgets.$NS.example.com}
  spec:
    group: $NS.example.com
    names: {plural: gadgets, singular: gadget, kind: Gadget, listKind: GadgetList}
    scope: Namespaced
    versions:
    - name: v1
      served: true
      storage: true
      schema: {openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}}
      subresources: {status: {}}`
	gadget = `
- {apiVersion: $NS.example.com/v1, kind: Gadget, metadata: {name: g, namespace: $NS}, spec: {size: 3}}`
	// A CRD whose conversion webhook (a Service that does not exist) the
	// cluster gives a caBundle; one version, so nothing is ever converted.
	conversionCRDV = `
- apiVersion: apiextensions.k8s.io/v1
  kind: CustomResourceDefinition
  metadata: {name: widgets.$NS.example.com, labels: {v: "$V"}}
  spec:
    group: $NS.example.com
    names: {plural: widgets, singular: widget, kind: Widget, listKind: WidgetList}
    scope: Namespaced
    versions:
    - {name: v1, served: true, storage: true, schema: {openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}}}
    conversion:
      strategy: Webhook
      webhook:
        conversionReviewVersions: [v1]
        clientConfig: {service: {name: convert, namespace: $NS, path: /convert, port: 443}}`
	// An APIService of a Service that does not exist: it is registered,
	// and unavailable.
	apiServiceV = `
- apiVersion: apiregistration.k8s.io/v1
  kind: APIService
  metadata: {name: v1.$NS.example.com, labels: {v: "$V"}}
  spec: {group: $NS.example.com, version: v1, groupPriorityMinimum: 1000, versionPriority: 15, service: {name: none, namespace: $NS, port: 443}}`
	// A StorageClass that leaves reclaimPolicy and volumeBindingMode to
	// the API server's defaults.
	storageClass = `
- {apiVersion: storage.k8s.io/v1, kind: StorageClass, metadata: {name: $NS-sc}, provisioner: example.com/none}`
	// ConfigMaps that name an owner of their own, the ConfigMap owner
	// the case makes before its work; the second is server-side applied.
	ownedCMsV = `
- apiVersion: v1
  kind: ConfigMap
  metadata:
    name: owned
    namespace: $NS
    ownerReferences: [{apiVersion: v1, kind: ConfigMap, name: owner, uid: "$UID(owner)"}]
  data: {a: "$V"}
- apiVersion: v1
  kind: ConfigMap
  metadata:
    name: owned-ssa
    namespace: $NS
    ownerReferences: [{apiVersion: v1, kind: ConfigMap, name: owner, uid: "$UID(owner)"}]
  data: {a: "$V"}`
)

// config is a manifestConfigs entry for one object, with more YAML (at the
// level of resourceIdentifier) after it.
func config(group, resource, namespace, name, rest string) string {
	var b strings.Builder
	b.WriteString("- resourceIdentifier: {group: \"" + group + "\", resource: " + resource +
		", namespace: \"" + namespace + "\", name: \"" + name + "\"}\n")
	for line := range strings.SplitSeq(strings.Trim(rest, "\n"), "\n") {
		b.WriteString("  " + line + "\n")
	}
	return b.String()
}

// configs is the manifestConfigs field of a spec.
func configs(entries ...string) string {
	var b strings.Builder
	b.WriteString("manifestConfigs:\n")
	for _, e := range entries {
		for line := range strings.SplitSeq(strings.Trim(e, "\n"), "\n") {
			b.WriteString("  " + line + "\n")
		}
	}
	return b.String()
}

// An executor of the case's namespace, and a RoleBinding to a ClusterRole
// that grants it rights there.
const (
	executorSA   = `{apiVersion: v1, kind: ServiceAccount, metadata: {name: executor, namespace: $NS}}`
	executorSpec = "executor: {subject: {type: ServiceAccount, serviceAccount: {namespace: $NS, name: executor}}}"
)

func executorBinding(clusterRole string) string {
	return `{apiVersion: rbac.authorization.k8s.io/v1, kind: RoleBinding, metadata: {name: executor-` + clusterRole + `, namespace: $NS},
	  roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: ` + clusterRole + `},
	  subjects: [{kind: ServiceAccount, name: executor, namespace: $NS}]}`
}

func strategy(t string) string { return "updateStrategy: {type: " + t + "}" }

// injectedCA is a CA bundle the cluster injects (base64 of a PEM
// certificate, as a CustomResourceDefinition's must be).
const injectedCA = "LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tCk1JSUJnakNDQVNtZ0F3SUJBZ0lVTkF1RktYeFJ5NnVvY0VpaVVFWkV5dnY2cm9Vd0NnWUlLb1pJemowRUF3SXcKRmpFVU1CSUdBMVVFQXd3TGFXNXFaV04wWldRdFkyRXdJQmNOTWpZeE1USTJNVFV5TkRFd1doZ1BNakV5TmpFeApNREl4TlRJME1UQmFNQll4RkRBU0JnTlZCQU1NQzJsdWFtVmpkR1ZrTFdOaE1Ga3dFd1lIS29aSXpqMENBUVlJCktvWkl6ajBEQVFjRFFnQUVSS3hsMitXUUFlUUROaGFxTnZpbDNmN3pEd2tTSUNjcWFsQXZ2TVVQMVhYT1RJVHQKb2g5WTZ6ektrdEFVSGk4d0tDN0thN0FCam0rVWFqU0xrTUxFdnFOVE1GRXdIUVlEVlIwT0JCWUVGS0JoWE9GYwpvYUZEekc4Z1g5WXdndjNvSVB4Q01COEdBMVVkSXdRWU1CYUFGS0JoWE9GY29hRkR6RzhnWDlZd2d2M29JUHhDCk1BOEdBMVVkRXdFQi93UUZNQU1CQWY4d0NnWUlLb1pJemowRUF3SURSd0F3UkFJZ0NmQWhuVzBrbCtEaDhCSjMKVEtKTnVrSEVJclhvZU5wNWZ5RFIrR1M5Q3FjQ0lEbzFFdWFvRmNHSnlnU0pDVHdnSlZ6NWVPbFNCcFdFZ3daegpVTHFEZnN4UQotLS0tLUVORCBDRVJUSUZJQ0FURS0tLS0tCg=="

const (
	userEditsCM  = `{"data":{"a":"user"}}`
	userLabelsCM = `{"metadata":{"labels":{"user":"x"}}}`
)

func diffCases() []diffCase {
	cmA, cmA2 := version(cmV, "1"), version(cmV, "2")
	deployment1, deployment2 := version(deploymentV, "1"), version(deploymentV, "2")
	serviceAccount, serviceAccount2 := version(serviceAccountV, "1"), version(serviceAccountV, "2")
	pod, pod2 := version(podV, "1"), version(podV, "2")
	namespace, namespace2 := version(namespaceV, "1"), version(namespaceV, "2")
	aggregatedRole, aggregatedRole2 := version(aggregatedRoleV, "1"), version(aggregatedRoleV, "2")
	secretStringData, secretStringData2 := version(secretV, "1"), version(secretV, "2")
	cmConfig := func(rest string) string { return configs(config("", "configmaps", "$NS", "cm", rest)) }
	deployConfig := func(rest string) string { return configs(config("apps", "deployments", "$NS", "web", rest)) }
	cmPatch := func(patch string) []spokePatch {
		return []spokePatch{{apiVersion: "v1", kind: "ConfigMap", name: "cm", patch: patch}}
	}
	cmAB1, cmAB2 := version(cmABV, "1"), version(cmABV, "2")
	ssaOnSpokeChangeA := "updateStrategy: {type: ServerSideApply, serverSideApply: {force: true, ignoreFields: [{condition: OnSpokeChange, jsonPaths: [.data.a]}]}}"
	preexistingCM := `{apiVersion: v1, kind: ConfigMap, metadata: {name: cm, namespace: $NS, labels: {owner: user}}, data: {a: "0", kept: "yes"}}`
	return []diffCase{
		// Update, the default strategy.
		{name: "update-configmap", works: []string{manifests(cmA)}, steps: []diffStep{
			{name: "change the work", works: map[int]string{0: manifests(cmA2)}},
			{name: "a user labels the object", spoke: cmPatch(userLabelsCM)},
			{name: "a user edits the data", spoke: cmPatch(userEditsCM)},
		}},
		{name: "update-deployment", works: []string{manifests(deployment1)}, steps: []diffStep{
			{name: "change the work", works: map[int]string{0: manifests(deployment2)}},
		}},
		{name: "update-service-job", works: []string{manifests(service + job)}},
		{name: "update-existing", before: []string{preexistingCM}, works: []string{manifests(cmA)}},
		{name: "add-manifest", works: []string{manifests(cmA)}, steps: []diffStep{
			{name: "add a manifest", works: map[int]string{0: manifests(cmA + cmB)}},
		}},
		{name: "remove-manifest", works: []string{manifests(cmA + cmB)}, steps: []diffStep{
			{name: "remove a manifest", works: map[int]string{0: manifests(cmA)}},
		}},
		{name: "invalid-manifests", works: []string{manifests(cmA + `
- {apiVersion: example.invalid/v1, kind: Nothing, metadata: {name: x, namespace: $NS}}
- {apiVersion: v1, kind: ConfigMap, metadata: {namespace: $NS}}`)}},
		{name: "two-works-one-object", works: []string{manifests(cmA), manifests(cmA)}, steps: []diffStep{
			{name: "delete one work", works: map[int]string{0: ""}},
		}},
		// CreateOnly.
		{name: "createonly", works: []string{manifests(cmA, cmConfig(strategy("CreateOnly")))}, steps: []diffStep{
			{name: "change the work", works: map[int]string{0: manifests(cmA2, cmConfig(strategy("CreateOnly")))}},
			{name: "delete the work", works: map[int]string{0: ""}},
		}},
		{name: "createonly-existing", before: []string{preexistingCM}, works: []string{manifests(cmA, cmConfig(strategy("CreateOnly")))},
			steps: []diffStep{{name: "delete the work", works: map[int]string{0: ""}}}},
		// ServerSideApply.
		{name: "ssa", works: []string{manifests(cmA+deployment1, configs(
			config("", "configmaps", "$NS", "cm", strategy("ServerSideApply")),
			config("apps", "deployments", "$NS", "web", strategy("ServerSideApply"))))}, steps: []diffStep{
			{name: "change the work", works: map[int]string{0: manifests(cmA2+deployment2, configs(
				config("", "configmaps", "$NS", "cm", strategy("ServerSideApply")),
				config("apps", "deployments", "$NS", "web", strategy("ServerSideApply"))))}},
			{name: "a user edits the data", spoke: cmPatch(userEditsCM)},
		}},
		{name: "ssa-field-manager", works: []string{manifests(cmA, cmConfig(
			"updateStrategy: {type: ServerSideApply, serverSideApply: {force: true, fieldManager: work-agent-other}}"))}},
		{name: "ssa-conflict", before: []string{preexistingCM}, works: []string{manifests(cmA, cmConfig(strategy("ServerSideApply")))}},
		{name: "ssa-force", before: []string{preexistingCM}, works: []string{manifests(cmA, cmConfig(
			"updateStrategy: {type: ServerSideApply, serverSideApply: {force: true}}"))}},
		{name: "ssa-ignore-onspokechange", works: []string{manifests(cmA, cmConfig(
			"updateStrategy: {type: ServerSideApply, serverSideApply: {ignoreFields: [{condition: OnSpokeChange, jsonPaths: [.data.a]}]}}"))},
			steps: []diffStep{
				{name: "a user edits the data", spoke: cmPatch(userEditsCM)},
				{name: "change the work", works: map[int]string{0: manifests(cmA2, cmConfig(
					"updateStrategy: {type: ServerSideApply, serverSideApply: {ignoreFields: [{condition: OnSpokeChange, jsonPaths: [.data.a]}]}}"))}},
			}},
		{name: "ssa-ignore-onspokepresent", works: []string{manifests(cmA, cmConfig(
			"updateStrategy: {type: ServerSideApply, serverSideApply: {ignoreFields: [{condition: OnSpokePresent, jsonPaths: [.data]}]}}"))},
			steps: []diffStep{
				{name: "change the work", works: map[int]string{0: manifests(cmA2, cmConfig(
					"updateStrategy: {type: ServerSideApply, serverSideApply: {ignoreFields: [{condition: OnSpokePresent, jsonPaths: [.data]}]}}"))}},
			}},
		{name: "ssa-ignore-wildcard", works: []string{manifests(deployment1, deployConfig(
			"updateStrategy: {type: ServerSideApply, serverSideApply: {ignoreFields: [{condition: OnSpokePresent, jsonPaths: [\".spec.template.spec.containers[*].image\"]}]}}"))},
			steps: []diffStep{{name: "change the work", works: map[int]string{0: manifests(deployment2, deployConfig(
				"updateStrategy: {type: ServerSideApply, serverSideApply: {ignoreFields: [{condition: OnSpokePresent, jsonPaths: [\".spec.template.spec.containers[*].image\"]}]}}"))}}}},
		{name: "ssa-ignore-filter", works: []string{manifests(deployment1, deployConfig(
			"updateStrategy: {type: ServerSideApply, serverSideApply: {ignoreFields: [{condition: OnSpokePresent, jsonPaths: [\".spec.template.spec.containers[?(@.name==\\\"main\\\")].image\"]}]}}"))},
			steps: []diffStep{{name: "change the work", works: map[int]string{0: manifests(deployment2, deployConfig(
				"updateStrategy: {type: ServerSideApply, serverSideApply: {ignoreFields: [{condition: OnSpokePresent, jsonPaths: [\".spec.template.spec.containers[?(@.name==\\\"main\\\")].image\"]}]}}"))}}}},
		// ReadOnly.
		{name: "readonly-existing", before: []string{preexistingCM}, works: []string{manifests(cmA, cmConfig(strategy("ReadOnly")+`
feedbackRules: [{type: JSONPaths, jsonPaths: [{name: a, path: .data.a}]}]`))}},
		{name: "readonly-missing", works: []string{manifests(cmA, cmConfig(strategy("ReadOnly")+`
feedbackRules: [{type: JSONPaths, jsonPaths: [{name: a, path: .data.a}]}]`))}},
		// Delete options.
		{name: "delete-foreground", works: []string{manifests(cmA+deployment1, "deleteOption: {propagationPolicy: Foreground}")},
			steps: []diffStep{{name: "delete the work", works: map[int]string{0: ""}}}},
		{name: "delete-orphan", works: []string{manifests(cmA+deployment1, "deleteOption: {propagationPolicy: Orphan}")},
			steps: []diffStep{{name: "delete the work", works: map[int]string{0: ""}}}},
		{name: "delete-selectively-orphan", works: []string{manifests(cmA+cmB, `
deleteOption:
  propagationPolicy: SelectivelyOrphan
  selectivelyOrphans: {orphaningRules: [{resource: configmaps, namespace: $NS, name: cm}]}`)},
			steps: []diffStep{{name: "delete the work", works: map[int]string{0: ""}}}},
		{name: "orphan-remove-manifest", works: []string{manifests(cmA+cmB, "deleteOption: {propagationPolicy: Orphan}")},
			steps: []diffStep{{name: "remove a manifest", works: map[int]string{0: manifests(cmA, "deleteOption: {propagationPolicy: Orphan}")}}}},
		{name: "delete-namespace-and-contents", works: []string{manifests(namespace + `
- {apiVersion: v1, kind: ConfigMap, metadata: {name: inside, namespace: $NS-extra}, data: {a: "1"}}`)},
			steps: []diffStep{{name: "delete the work", works: map[int]string{0: ""}}}},
		// Feedback rules.
		{name: "feedback-wellknown", works: []string{manifests(deployment1+job, configs(
			config("apps", "deployments", "$NS", "web", "feedbackRules: [{type: WellKnownStatus}]"),
			config("batch", "jobs", "$NS", "once", "feedbackRules: [{type: WellKnownStatus}]")))}},
		{name: "feedback-wellknown-no-kind", works: []string{manifests(cmA, cmConfig("feedbackRules: [{type: WellKnownStatus}]"))}},
		{name: "feedback-jsonpaths", works: []string{manifests(deployment1, deployConfig(`
feedbackRules:
- type: JSONPaths
  jsonPaths:
  - {name: replicas, path: .spec.replicas}
  - {name: image, path: ".spec.template.spec.containers[0].image"}
  - {name: paused, path: .spec.paused}
  - {name: selector, path: .spec.selector}
  - {name: missing, path: .status.nothing}
  - {name: names, path: ".spec.template.spec.containers[*].name"}`))}},
		{name: "feedback-mixed-rules", works: []string{manifests(deployment1, deployConfig(`
feedbackRules:
- {type: WellKnownStatus}
- type: JSONPaths
  jsonPaths: [{name: generation, path: .metadata.generation}]`))}},
		// Wildcard and overlapping configs.
		{name: "config-wildcard", works: []string{manifests(cmA+cmB, configs(config("", "configmaps", "*", "*",
			"feedbackRules: [{type: JSONPaths, jsonPaths: [{name: uid, path: .metadata.name}]}]")))}},
		{name: "config-overlap", works: []string{manifests(cmA, configs(
			config("", "configmaps", "$NS", "cm", "feedbackRules: [{type: JSONPaths, jsonPaths: [{name: first, path: .data.a}]}]"),
			config("", "configmaps", "$NS", "*", strategy("ServerSideApply")+`
feedbackRules: [{type: JSONPaths, jsonPaths: [{name: second, path: .data.a}]}]`)))}},
		// Condition rules.
		{name: "condition-wellknown-job", works: []string{manifests(job, configs(config("batch", "jobs", "$NS", "once",
			"conditionRules: [{type: WellKnownConditions, condition: Complete}]")))}},
		{name: "condition-wellknown-no-kind", works: []string{manifests(cmA, cmConfig("conditionRules: [{type: WellKnownConditions, condition: Complete}]"))}},
		{name: "condition-cel", works: []string{manifests(cmA, cmConfig(`
conditionRules:
- {type: CEL, condition: Ready, celExpressions: ["object.data.a == '1'"], message: the data is right}
- {type: CEL, condition: Wrong, celExpressions: ["object.data.a == '2'"], messageExpression: "'a is ' + object.data.a"}`))},
			steps: []diffStep{{name: "change the work", works: map[int]string{0: manifests(cmA2, cmConfig(`
conditionRules:
- {type: CEL, condition: Ready, celExpressions: ["object.data.a == '1'"], message: the data is right}
- {type: CEL, condition: Wrong, celExpressions: ["object.data.a == '2'"], messageExpression: "'a is ' + object.data.a"}`))}}}},
		{name: "condition-cel-optional", works: []string{manifests(cmA, cmConfig(`
conditionRules:
- {type: CEL, condition: Ready, celExpressions: ["object.?data.?missing.orValue('x') == 'x'"]}
- {type: CEL, condition: Quantity, celExpressions: ["quantity('1Gi').isGreaterThan(quantity('1Mi'))"]}`))}},
		{name: "condition-cel-error", works: []string{manifests(cmA, cmConfig(`
conditionRules:
- {type: CEL, condition: Broken, celExpressions: ["object.data.a +"]}
- {type: CEL, condition: NotBool, celExpressions: ["object.data.a"]}`))}},
		{name: "condition-user-progressing", works: []string{manifests(cmA, cmConfig(`
conditionRules:
- {type: CEL, condition: Progressing, celExpressions: ["false"], message: user rule}
- {type: CEL, condition: Degraded, celExpressions: ["false"], message: user rule}`))}},
		// Objects other controllers of the cluster write to as well.
		{name: "webhook-cabundle", works: []string{manifests(webhook("Validating", "1") + webhook("Mutating", "1"))}, steps: []diffStep{
			{name: "the cluster injects a caBundle", spoke: []spokePatch{
				{apiVersion: "admissionregistration.k8s.io/v1", kind: "ValidatingWebhookConfiguration", name: "$NS-validating",
					patch: `{"webhooks":[{"name":"validating.$NS.example.com","clientConfig":{"caBundle":"Y2E="}}]}`},
				{apiVersion: "admissionregistration.k8s.io/v1", kind: "MutatingWebhookConfiguration", name: "$NS-mutating",
					patch: `{"webhooks":[{"name":"mutating.$NS.example.com","clientConfig":{"caBundle":"Y2E="}}]}`},
			}},
			{name: "change the work", works: map[int]string{0: manifests(webhook("Validating", "2") + webhook("Mutating", "2"))}},
		}},
		{name: "serviceaccount-pull-secrets", works: []string{manifests(serviceAccount)}, steps: []diffStep{
			{name: "the cluster adds secrets", spoke: []spokePatch{{apiVersion: "v1", kind: "ServiceAccount", name: "sa",
				patch: `{"secrets":[{"name":"sa-token"}],"imagePullSecrets":[{"name":"sa-dockercfg"}]}`}}},
			{name: "change the work", works: map[int]string{0: manifests(serviceAccount2)}},
		}},
		{name: "clusterrole-aggregation", works: []string{manifests(aggregatedRole + aggregatedPart)}, steps: []diffStep{
			{name: "change the work", works: map[int]string{0: manifests(aggregatedRole2 + aggregatedPart)}},
		}},
		{name: "namespace-metadata", works: []string{manifests(namespace)}, steps: []diffStep{
			{name: "change the work", works: map[int]string{0: manifests(namespace2)}},
		}},
		{name: "pod-metadata", works: []string{manifests(pod)}, steps: []diffStep{
			{name: "change the work", works: map[int]string{0: manifests(pod2)}},
		}},
		{name: "serviceaccount-metadata", works: []string{manifests(serviceAccount)}, steps: []diffStep{
			{name: "a user edits the object", spoke: []spokePatch{{apiVersion: "v1", kind: "ServiceAccount", name: "sa",
				patch: `{"automountServiceAccountToken":false}`}}},
			{name: "change the work", works: map[int]string{0: manifests(serviceAccount2)}},
		}},
		{name: "secret-stringdata", works: []string{manifests(secretStringData)}, steps: []diffStep{
			{name: "change the work", works: map[int]string{0: manifests(secretStringData2)}},
		}},
		{name: "secret-type-change", works: []string{manifests(secretStringData)}, steps: []diffStep{
			{name: "change the type", works: map[int]string{0: manifests(secretOtherType)}},
		}},
		// CRDs with their instances.
		{name: "crd-and-instance", works: []string{manifests(gadgetCRD + gadget)}, steps: []diffStep{
			{name: "delete the work", works: map[int]string{0: ""}},
		}},
		{name: "crd-instance-first", works: []string{manifests(gadget + gadgetCRD)}},
		{name: "crd-conversion-cabundle", works: []string{manifests(version(conversionCRDV, "1"))}, steps: []diffStep{
			{name: "the cluster injects a caBundle", spoke: []spokePatch{{apiVersion: "apiextensions.k8s.io/v1", kind: "CustomResourceDefinition",
				name: "widgets.$NS.example.com", patch: `{"spec":{"conversion":{"webhook":{"clientConfig":{"caBundle":"` + injectedCA + `"}}}}}`}}},
			{name: "change the work", works: map[int]string{0: manifests(version(conversionCRDV, "2"))}},
		}},
		{name: "apiservice-cabundle", works: []string{manifests(version(apiServiceV, "1"))}, steps: []diffStep{
			{name: "the cluster injects a caBundle", spoke: []spokePatch{{apiVersion: "apiregistration.k8s.io/v1", kind: "APIService",
				name: "v1.$NS.example.com", patch: `{"spec":{"caBundle":"` + injectedCA + `"}}`}}},
			{name: "change the work", works: map[int]string{0: manifests(version(apiServiceV, "2"))}},
			// An unavailable APIService holds up the discovery of the whole cluster.
			{name: "delete the work", works: map[int]string{0: ""}},
		}},
		// OCM's agent recreates this StorageClass on every apply, from the
		// create on; the work's deletion ends that.
		{name: "storageclass-defaults", works: []string{manifests(storageClass)}, steps: []diffStep{
			{name: "delete the work", works: map[int]string{0: ""}},
		}},
		// Manifests that are not as the API wants them.
		{name: "manifest-owner-references", before: []string{`{apiVersion: v1, kind: ConfigMap, metadata: {name: owner, namespace: $NS}}`},
			works: []string{manifests(version(ownedCMsV, "1"), configs(config("", "configmaps", "$NS", "owned-ssa", strategy("ServerSideApply"))))},
			steps: []diffStep{{name: "change the work", works: map[int]string{0: manifests(version(ownedCMsV, "2"),
				configs(config("", "configmaps", "$NS", "owned-ssa", strategy("ServerSideApply"))))}}}},
		{name: "namespaced-without-namespace", works: []string{manifests(cmA + `
- {apiVersion: v1, kind: ConfigMap, metadata: {name: $NS-cm}, data: {a: "1"}}`)}},
		{name: "ssa-ignore-invalid-path", works: []string{manifests(cmA, cmConfig(
			"updateStrategy: {type: ServerSideApply, serverSideApply: {ignoreFields: [{condition: OnSpokePresent, jsonPaths: [\".data[.a\"]}]}}"))}},
		// Executors.
		{name: "executor-allowed", before: []string{executorSA, executorBinding("edit")}, works: []string{manifests(cmA, executorSpec)}},
		{name: "executor-denied", before: []string{executorSA}, works: []string{manifests(cmA+aggregatedPart, executorSpec)}},
		{name: "executor-readonly-get", before: []string{preexistingCM, executorSA,
			`{apiVersion: rbac.authorization.k8s.io/v1, kind: Role, metadata: {name: get-configmaps, namespace: $NS},
			  rules: [{apiGroups: [""], resources: [configmaps], verbs: [get]}]}`,
			`{apiVersion: rbac.authorization.k8s.io/v1, kind: RoleBinding, metadata: {name: executor-get, namespace: $NS},
			  roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: get-configmaps},
			  subjects: [{kind: ServiceAccount, name: executor, namespace: $NS}]}`,
		}, works: []string{manifests(cmA, cmConfig(strategy("ReadOnly")+`
feedbackRules: [{type: JSONPaths, jsonPaths: [{name: a, path: .data.a}]}]`), executorSpec)}},
		// Fields and keys the manifest does not set, changed on the managed
		// cluster by others, then the work is touched.
		{name: "update-unset-fields", works: []string{manifests(cmA + deployment1 + service)}, steps: []diffStep{
			{name: "others add a data key, an env var, a restart and a port; the work is touched", touch: true, spoke: []spokePatch{
				{apiVersion: "v1", kind: "ConfigMap", name: "cm", patch: `{"data":{"b":"user"}}`},
				{apiVersion: "apps/v1", kind: "Deployment", name: "web", patch: `{"spec":{"template":{
				  "metadata":{"annotations":{"kubectl.kubernetes.io/restartedAt":"2026-11-28T00:00:00Z"}},
				  "spec":{"containers":[{"name":"main","env":[{"name":"FOO","value":"bar"}]}]}}}}`},
				{apiVersion: "v1", kind: "Service", name: "web", patch: `{"spec":{"ports":[{"name":"extra","port":81,"targetPort":8081}]}}`},
			}},
		}},
		{name: "ssa-onspokechange-other-field", works: []string{manifests(cmAB1, cmConfig(ssaOnSpokeChangeA))}, steps: []diffStep{
			{name: "a user edits the ignored field", spoke: cmPatch(userEditsCM), touch: true},
			{name: "the work changes another field", works: map[int]string{0: manifests(cmAB2, cmConfig(ssaOnSpokeChangeA))}},
		}},
		{name: "ssa-ignorefields-drift", works: []string{manifests(cmAB1, cmConfig(
			"updateStrategy: {type: ServerSideApply, serverSideApply: {force: true, ignoreFields: [{condition: OnSpokePresent, jsonPaths: [.data.a]}]}}"))},
			steps: []diffStep{{name: "a user edits a field not ignored; the work is touched", touch: true,
				spoke: cmPatch(`{"data":{"b":"user"}}`)}}},
		// A finished Job (its Complete condition True) that the TTL
		// controller deleted.
		{name: "job-complete-deleted", works: []string{manifests(job, configs(config("batch", "jobs", "$NS", "once",
			"conditionRules: [{type: WellKnownConditions, condition: Complete}]")))}, steps: []diffStep{
			{name: "the TTL controller deletes the finished Job; the work is touched", touch: true,
				spokeDelete: []string{"batch/v1 Job once"}},
		}},
		{name: "clusterscoped-with-namespace", works: []string{manifests(`
- apiVersion: rbac.authorization.k8s.io/v1
  kind: ClusterRole
  metadata: {name: $NS-role, namespace: $NS}
  rules: [{apiGroups: [""], resources: [configmaps], verbs: [get]}]`)}},
		{name: "feedback-duplicate-names", works: []string{manifests(deployment1, deployConfig(`
feedbackRules:
- {type: WellKnownStatus}
- type: JSONPaths
  jsonPaths: [{name: ReadyReplicas, path: .metadata.name}, {name: twice, path: .spec.replicas}]
- type: JSONPaths
  jsonPaths: [{name: twice, path: .metadata.name}]`))}},
		{name: "feedback-other-version", works: []string{manifests(`
- apiVersion: autoscaling/v2
  kind: HorizontalPodAutoscaler
  metadata: {name: hpa, namespace: $NS}
  spec: {scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: none}, minReplicas: 1, maxReplicas: 3}`,
			configs(config("autoscaling", "horizontalpodautoscalers", "$NS", "hpa", `
feedbackRules:
- type: JSONPaths
  jsonPaths: [{name: max, path: .spec.maxReplicas, version: v1}, {name: same, path: .spec.minReplicas, version: v2}]`)))}},
		// An executor that holds its rights through a RoleBinding to
		// ClusterRole admin delivers RBAC: a Role of rights it holds and a
		// binding to it, which the API server allows it, and a Role of
		// rights it lacks, which the API server refuses it.
		{name: "executor-role-rbac", before: []string{executorSA, executorBinding("admin")},
			works: []string{manifests(cmA+`
- apiVersion: rbac.authorization.k8s.io/v1
  kind: Role
  metadata: {name: reader, namespace: $NS}
  rules: [{apiGroups: [""], resources: [configmaps], verbs: [get]}]
- apiVersion: rbac.authorization.k8s.io/v1
  kind: RoleBinding
  metadata: {name: reader, namespace: $NS}
  roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: reader}
  subjects: [{kind: ServiceAccount, name: executor, namespace: $NS}]
- apiVersion: rbac.authorization.k8s.io/v1
  kind: Role
  metadata: {name: beyond, namespace: $NS}
  rules: [{apiGroups: [$NS.example.com], resources: [gadgets], verbs: [get]}]`, executorSpec)}},
		// ReadOnly of an object no one may read (a kind the API server
		// only creates: a GET is refused with MethodNotAllowed). Both
		// agents run as the managed cluster's admin here, so an object the
		// agent is forbidden to read (issue 35 item 3) cannot be shown.
		{name: "readonly-unreadable", works: []string{manifests(cmA+`
- apiVersion: authorization.k8s.io/v1
  kind: SubjectAccessReview
  metadata: {name: $NS-review}
  spec: {user: nobody, resourceAttributes: {verb: get, resource: configmaps}}`,
			configs(config("authorization.k8s.io", "subjectaccessreviews", "", "$NS-review", strategy("ReadOnly"))))}},
		// An executor loses its rights (a tenant is offboarded), then a
		// manifest is dropped and the work deleted; the right comes back.
		{name: "executor-offboarded", before: []string{executorSA, executorBinding("edit")},
			works: []string{manifests(cmA+cmB, executorSpec)}, steps: []diffStep{
				{name: "the executor loses its rights", spokeDelete: []string{"rbac.authorization.k8s.io/v1 RoleBinding executor-edit"}},
				{name: "drop a manifest", works: map[int]string{0: manifests(cmA, executorSpec)}},
				{name: "delete the work", works: map[int]string{0: ""}},
				{name: "the right comes back", spokeApply: []string{executorBinding("edit")}},
			}},
	}
}

// klusterletUninstallCase simulates a Klusterlet uninstall over works that
// orphan their objects, wholly or in part: every orphaned object stays.
func klusterletUninstallCase() diffCase {
	return diffCase{
		name: "klusterlet-uninstall",
		works: []string{
			manifests(version(cmV, "1")+version(deploymentV, "1"), "deleteOption: {propagationPolicy: Orphan}"),
			manifests(`
- {apiVersion: v1, kind: ConfigMap, metadata: {name: kept, namespace: $NS}, data: {a: "1"}}
- {apiVersion: v1, kind: ConfigMap, metadata: {name: dropped, namespace: $NS}, data: {a: "1"}}`, `
deleteOption:
  propagationPolicy: SelectivelyOrphan
  selectivelyOrphans: {orphaningRules: [{resource: configmaps, namespace: $NS, name: kept}]}`),
			manifests(cmB),
		},
		steps:  []diffStep{{name: "uninstall the Klusterlet", uninstall: true}},
		remain: []string{"v1 ConfigMap cm", "apps/v1 Deployment web", "v1 ConfigMap kept"},
	}
}
