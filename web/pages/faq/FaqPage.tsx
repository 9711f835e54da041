import { useId } from "react";
import { FaqAccordion } from "./components/FaqAccordion";
import { FAQ_GROUPS } from "./faqContent";
import "./faq.css";

/** `/faq` (spec 2 "FAQ"): 21 questions in five groups, each group an accordion. */
export function FaqPage() {
  const baseId = useId();
  return (
    <section className="public-page public-page--narrow">
      <h1>Frequently Asked Questions</h1>
      {FAQ_GROUPS.map((group, index) => (
        <section key={group.title} className="faq-group" aria-labelledby={`${baseId}-group${index}`}>
          <h2 id={`${baseId}-group${index}`}>{group.title}</h2>
          <FaqAccordion entries={group.entries} />
        </section>
      ))}
    </section>
  );
}
