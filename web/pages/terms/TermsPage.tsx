import { Link } from "react-router";
import { TERMS_EFFECTIVE_DATE, TERMS_SECTIONS } from "./termsContent";
import "./terms.css";

/** `/terms` (spec 2 "Terms of Service"): the effective date and the 11 numbered sections. */
export function TermsPage() {
  const last = TERMS_SECTIONS.length - 1;
  return (
    <article className="public-page public-page--narrow terms">
      <h1>Terms of Service</h1>
      <p className="public-page__lead">Effective date: {TERMS_EFFECTIVE_DATE}</p>
      {TERMS_SECTIONS.map((section, index) => (
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
              <Link to="/contact">Go to the contact page</Link>
            </p>
          )}
        </section>
      ))}
    </article>
  );
}
