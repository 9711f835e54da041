// An accessible accordion of FAQ questions (WAI-ARIA pattern), each answer in a labelled region.
import { useId, useState } from "react";
import type { FaqEntry } from "../faqContent";

/**
 * An accessible accordion (WAI-ARIA pattern): each question is a button in a heading with
 * `aria-expanded`, controlling a labelled region that holds the answer.
 */
export function FaqAccordion({ entries }: { entries: FaqEntry[] }) {
  const baseId = useId();
  const [open, setOpen] = useState<ReadonlySet<number>>(new Set());
  const toggle = (index: number): void =>
    setOpen((previous) => {
      const next = new Set(previous);
      if (next.has(index)) next.delete(index);
      else next.add(index);
      return next;
    });

  return (
    <div className="accordion">
      {entries.map((entry, index) => {
        const expanded = open.has(index);
        const buttonId = `${baseId}-q${index}`;
        const panelId = `${baseId}-a${index}`;
        return (
          <div key={entry.question} className="accordion__item">
            <h3 className="accordion__heading">
              <button
                id={buttonId}
                type="button"
                className="accordion__button"
                aria-expanded={expanded}
                aria-controls={panelId}
                onClick={() => toggle(index)}
              >
                <span>{entry.question}</span>
                <span className="accordion__icon" aria-hidden="true" />
              </button>
            </h3>
            <section id={panelId} aria-labelledby={buttonId} className="accordion__panel" hidden={!expanded}>
              {entry.answer.map((paragraph) => (
                <p key={paragraph}>{paragraph}</p>
              ))}
            </section>
          </div>
        );
      })}
    </div>
  );
}
