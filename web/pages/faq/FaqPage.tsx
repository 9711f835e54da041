// The FAQ page (/faq, product.md §2 "FAQ"): 21 questions in five groups, each group an accordion.
import { useId } from "react";
import { useTranslation } from "react-i18next";
import { FaqAccordion } from "./components/FaqAccordion";
import { faqGroups } from "./faqContent";
import "./faq.css";

/** `/faq` (product.md §2 "FAQ"): 21 questions in five groups, each group an accordion (translated, catalogue "faq" loaded with the page). */
export function FaqPage() {
  const baseId = useId();
  const { t } = useTranslation("faq");
  return (
    <section className="public-page public-page--narrow">
      <h1>{t("title")}</h1>
      {faqGroups(t).map((group, index) => (
        <section key={group.title} className="faq-group" aria-labelledby={`${baseId}-group${index}`}>
          <h2 id={`${baseId}-group${index}`}>{group.title}</h2>
          <FaqAccordion entries={group.entries} />
        </section>
      ))}
    </section>
  );
}
