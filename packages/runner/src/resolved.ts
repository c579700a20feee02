// The campaign resolved once for a run: its algorithms with every submission's meta.json read and checked once,
// their instances with their build profiles as objects. runPipeline resolves it before anything is written and
// hands it to every step; a step plans from it and never reads meta.json or looks a profile up by name again.
import type { Campaign } from "./campaign.ts";
import { type AlgorithmSpec, resolveAlgorithms } from "./instances.ts";

export interface ResolvedCampaign extends Campaign {
  /** The campaign's algorithms in campaign order (bad input — a missing submission, a bad meta.json — refused). */
  algorithms: AlgorithmSpec[];
}

/** Resolves a loaded campaign's algorithms (InputError, exit 2, for bad input). */
export function resolveCampaign(campaign: Campaign): ResolvedCampaign {
  return { ...campaign, algorithms: resolveAlgorithms(campaign) };
}
