// Section 1 of the algorithm page: basic information, from the store index (or the records without one).
import { text } from "../model.ts";
import { FUNCTION_OF, linkInline, section } from "../parts.ts";
import type { AlgorithmView, SystemView } from "../view.ts";

export function basicSection(view: SystemView, alg: AlgorithmView) {
  return section("basic", "1. Basic information", {
    list: [
      { key: "Category", value: [text(`public-key algorithm; function: ${FUNCTION_OF[alg.category]}`)] },
      { key: "Algorithm", value: [text(alg.name ?? `${alg.id} (name not recorded)`)] },
      {
        key: "Implementation versions measured",
        value: [text(alg.implementations.length ? alg.implementations.join(", ") : "not recorded")],
      },
      { key: "Parameter sets", value: [text(alg.instances.join(", "))] },
      { key: "Security evaluation", value: [linkInline(alg.links.security, "not linked")] },
      {
        key: "Measurement method",
        value: [
          alg.links.method?.href
            ? { text: alg.links.method.label, href: alg.links.method.href }
            : { text: alg.links.method?.label ?? `${view.system} method`, page: "method" },
        ],
      },
      { key: "Submission", value: [linkInline(alg.links.submission, "not linked")] },
    ],
  });
}
