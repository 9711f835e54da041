// The Terms of Service page (/terms, product.md §2 "Terms of Service"): the effective date and 11 numbered sections.
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { termsEffectiveDate, termsSections } from "./termsContent";
import "./terms.css";

/** `/terms` (product.md §2 "Terms of Service"): the effective date and the 11 numbered sections (translated, catalogue "terms" loaded with the page). */
export function TermsPage() {
  const { t } = useTranslation("terms");
  const sections = termsSections(t);
  const last = sections.length - 1;
  return (
    <article className="public-page public-page--narrow terms">
      <h1>{t("title")}</h1>
      <p className="public-page__lead">{t("effective", { date: termsEffectiveDate() })}</p>
      {sections.map((section, index) => (
        <section key={section.title}>
          <h2>
            {index + 1}. {section.title}
          </h2>
          {section.paragraphs.map((paragraph) => (
            <p key={paragraph}>{paragraph}</p>
          ))}
          {section.items && (
            <ul>
              {section.items.map((item) => (
                <li key={item}>{item}</li>
              ))}
            </ul>
          )}
          {index === last && (
            <p>
              <Link to="/contact">{t("contactLink")}</Link>
            </p>
          )}
        </section>
      ))}
    </article>
  );
}
