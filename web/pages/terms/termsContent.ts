import { PRODUCT_NAME } from "../../../common/constants";

/** spec 2, 9: the terms are effective 08/01/2024. */
export const TERMS_EFFECTIVE_DATE = "08/01/2024";

/** One numbered section of the Terms of Service. */
export interface TermsSection {
  title: string;
  paragraphs: string[];
  /** Listed items after the paragraphs, if any. */
  items?: string[];
}

/**
 * The 11 sections of the Terms of Service, in the order of spec 2: acceptance, service
 * description, accounts, user-generated content, uncensored content, content ownership,
 * disclaimer, prohibited activities, termination, changes, contact.
 */
export const TERMS_SECTIONS: TermsSection[] = [
  {
    title: "Acceptance of Terms",
    paragraphs: [
      `By accessing or using ${PRODUCT_NAME} (the "Service"), you agree to be bound by these Terms of Service. If you do not agree, do not use the Service.`,
    ],
  },
  {
    title: "Description of Service",
    paragraphs: [
      `${PRODUCT_NAME} lets you chat with AI-powered virtual companion characters by text, voice or photos, one to one or in groups. You can create your own characters, upload photos of them and chat with them. Higher subscription tiers can generate uncensored images during chats.`,
    ],
  },
  {
    title: "User Accounts",
    paragraphs: [
      "You are responsible for the accuracy of the information you give us, for keeping your login details confidential and for all activity under your account. Tell us at once if you suspect unauthorised use of your account.",
    ],
  },
  {
    title: "User-Generated Content",
    paragraphs: [
      "You are solely responsible for the characters, texts, photos and other content you create, upload or send through the Service. You confirm that you have the rights needed to upload it and that it complies with these Terms and the law.",
    ],
  },
  {
    title: "Uncensored Content",
    paragraphs: [
      "Some tiers of the Service allow uncensored content, including generated images. Such content is meant for adults only. By requesting it you confirm that you are of legal age where you live and that viewing it is lawful for you.",
    ],
  },
  {
    title: "Content Ownership",
    paragraphs: [
      `You keep ownership of the content you create or upload. By using the Service you grant ${PRODUCT_NAME} a non-exclusive, worldwide, royalty-free licence to host, store, process and display that content as needed to operate and improve the Service.`,
    ],
  },
  {
    title: "Disclaimer",
    paragraphs: [
      'The Service is provided "as is" and "as available", without warranties of any kind. Characters are artificial: their answers are generated automatically, may be inaccurate or inappropriate, and are not professional advice of any kind.',
    ],
  },
  {
    title: "Prohibited Activities",
    paragraphs: ["You agree not to:"],
    items: [
      "use the Service for any illegal purpose or in breach of any law;",
      "upload content that infringes the intellectual property, privacy or other rights of others;",
      "harass, threaten, abuse or harm any person through the Service.",
    ],
  },
  {
    title: "Termination",
    paragraphs: [
      `${PRODUCT_NAME} may suspend or terminate your access to the Service at its sole discretion, at any time and without notice, in particular if you breach these Terms.`,
    ],
  },
  {
    title: "Changes to the Terms",
    paragraphs: [
      "We may change these Terms from time to time. The new version applies from its effective date; continuing to use the Service after that date means you accept it.",
    ],
  },
  {
    title: "Contact Us",
    paragraphs: ["Questions about these Terms? Write to us through the contact page."],
  },
];
