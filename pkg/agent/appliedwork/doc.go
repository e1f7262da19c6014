// Package appliedwork keeps the agent's AppliedManifestWorks: the records,
// on the managed cluster, of what each work applied. It names them and
// builds the owner references that tie applied objects to them; it labels
// them with their cluster, also those written without the label; and it
// removes or releases one applied object once it has checked that the
// object is still the work's (Cleaner), for pruning and finalizing alike.
package appliedwork
