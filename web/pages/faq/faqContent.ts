import { FREE_DAILY_MESSAGES, GROUP_MAX_MEMBERS, PRODUCT_NAME } from "../../../common/constants";

/** One question of the FAQ and its answer (plain text paragraphs). */
export interface FaqEntry {
  question: string;
  answer: string[];
}

/** A titled group of questions. */
export interface FaqGroup {
  title: string;
  entries: FaqEntry[];
}

/**
 * The FAQ (spec 2 "FAQ": 21 questions in the groups general, Premium Plus, technical and
 * payment, security and privacy, contact). The facts are those of spec section 9.
 */
export const FAQ_GROUPS: FaqGroup[] = [
  {
    title: "General",
    entries: [
      {
        question: `What is ${PRODUCT_NAME}?`,
        answer: [
          `${PRODUCT_NAME} lets you chat with AI companion characters, one to one or in a group, by typing, speaking or sending photos. Characters can answer with text and spoken audio.`,
        ],
      },
      {
        question: "Can I create my own character?",
        answer: [
          "Yes. Give your character a name, sex, voice, language, backstory and greeting, or start from one of our preset characters. The number of characters you can create depends on your plan.",
        ],
      },
      {
        question: "How can I chat for free?",
        answer: [
          `Subscribe for free on the Try for Free page: enter your e-mail, receive a code, comment on our video with that code, and you receive your login details once the code is verified. Free subscribers can send up to ${FREE_DAILY_MESSAGES} messages per day.`,
        ],
      },
      {
        question: "What happens when I reach my monthly message limit?",
        answer: [
          "You can buy an add-on of 100 additional messages for $1.99 when your plan's monthly limit is reached, or upgrade to a bigger plan.",
        ],
      },
      {
        question: "Can I chat with several characters at once?",
        answer: [
          `Yes. Start a group chat with your own characters; a group holds at most ${GROUP_MAX_MEMBERS} members, and the characters answer in turn. You can add or remove members at any time.`,
        ],
      },
      {
        question: "Can I talk to my character instead of typing?",
        answer: [
          "Yes. Use the microphone button to speak; replies can be played back as audio. Voice chat, the silence timeout and muting are in the chat settings.",
        ],
      },
    ],
  },
  {
    title: "Premium Plus",
    entries: [
      {
        question: "What does Premium Plus add?",
        answer: [
          "Premium Plus lets your characters send uncensored images on request during a chat, on top of everything the other plans offer.",
        ],
      },
      {
        question: "Do image requests count as messages?",
        answer: ["Yes. Each image request counts as one message of your plan's limit."],
      },
      {
        question: "Which plans let me upload photos?",
        answer: [
          "The Basic Plan and above allow photo upload, for example a photo for your character. The free tier does not.",
        ],
      },
      {
        question: "Can I upgrade my plan?",
        answer: ["Yes. Choose a bigger plan on the pricing page; upgrades take effect immediately."],
      },
    ],
  },
  {
    title: "Technical and payment",
    entries: [
      {
        question: "How much do the plans cost?",
        answer: [
          "Plans are priced per month in US dollars. The current plans and prices are listed on the pricing page.",
        ],
      },
      {
        question: "Which payment methods do you accept?",
        answer: ["We accept all major credit cards and PayPal."],
      },
      {
        question: "Can I get a refund?",
        answer: ["No. Payments are not refunded."],
      },
      {
        question: "How do I cancel my subscription?",
        answer: [
          "Cancel through the external membership site where you subscribed. Your access continues until the end of the current billing cycle.",
        ],
      },
      {
        question: "Which devices and browsers are supported?",
        answer: [
          "Any current browser on a computer, tablet or phone. Voice input needs a microphone and the browser's permission to use it; the camera is optional.",
        ],
      },
    ],
  },
  {
    title: "Security and privacy",
    entries: [
      {
        question: "Who can see my chats?",
        answer: [
          "Your chats and characters belong to your account and are shown only when you are signed in. Starting a new chat deletes the previous chat history with that character.",
        ],
      },
      {
        question: "Who owns the content I create?",
        answer: [
          `You keep ownership of the characters, texts and photos you create or upload, and you grant ${PRODUCT_NAME} a non-exclusive licence to use them to run the service. See the Terms of Service.`,
        ],
      },
      {
        question: "How is my session protected?",
        answer: [
          "You sign in with your e-mail and password. A session expires after one hour unless you keep using the app, and you can log out at any time from the menu.",
        ],
      },
      {
        question: "I forgot my password. What can I do?",
        answer: [
          "Choose Forgot Password on the sign-in page and enter your e-mail. You receive a link to set a new password.",
        ],
      },
    ],
  },
  {
    title: "Contact",
    entries: [
      {
        question: "How can I contact you?",
        answer: [
          "Use the form on the contact page with your name, e-mail, subject and message; we answer by e-mail.",
        ],
      },
      {
        question: "Where can I follow you?",
        answer: ["Follow us on the social networks linked at the bottom of every page."],
      },
    ],
  },
];
