// Package hosts generates the volunteer host population of a scenario:
// CPUs (count, Whetstone and Dhrystone per CPU), GPUs (vendor, count, peak
// FLOPS), availability (on and off periods), error rates, owners (users
// and teams, a user owning one or more hosts) and each host's behaviour
// (honest or an agent kind).
//
// Host i is drawn only from its own random stream, and user u from its
// own, so adding hosts to a scenario leaves the existing hosts unchanged.
// Nothing here knows about credit.
//
// Imports (layer 2): boinc, boinc/rng, model/param.
package hosts
