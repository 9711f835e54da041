// The public footer's links to five outside networks, as inline SVG icons (product.md §2 "Shared public layout").
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";

interface Network {
  name: string;
  /** The network's home page. */
  href: string;
  /** Icon drawing on a 24×24 grid, in currentColor. */
  icon: ReactNode;
}

const NETWORKS: Network[] = [
  {
    name: "Facebook",
    href: "https://www.facebook.com/",
    icon: (
      <path d="M13.5 21v-7.5h2.6l.4-3h-3V8.6c0-.9.3-1.5 1.6-1.5h1.6V4.4c-.3 0-1.2-.1-2.3-.1-2.3 0-3.9 1.4-3.9 4V10.5H8v3h2.5V21z" />
    ),
  },
  {
    name: "Instagram",
    href: "https://www.instagram.com/",
    icon: (
      <>
        <rect
          x="3.5"
          y="3.5"
          width="17"
          height="17"
          rx="5"
          fill="none"
          stroke="currentColor"
          strokeWidth="2"
        />
        <circle cx="12" cy="12" r="4" fill="none" stroke="currentColor" strokeWidth="2" />
        <circle cx="17.3" cy="6.7" r="1.2" />
      </>
    ),
  },
  {
    name: "X",
    href: "https://x.com/",
    icon: <path d="M4 3.5h4.6l4.1 5.6 4.9-5.6h2.3l-6.2 7.1 7 9.9h-4.6l-4.5-6.2-5.4 6.2H3.9l6.6-7.6z" />,
  },
  {
    name: "YouTube",
    href: "https://www.youtube.com/",
    icon: (
      <path d="M21.6 7.2a2.5 2.5 0 0 0-1.8-1.8C18.2 5 12 5 12 5s-6.2 0-7.8.4a2.5 2.5 0 0 0-1.8 1.8C2 8.8 2 12 2 12s0 3.2.4 4.8a2.5 2.5 0 0 0 1.8 1.8C5.8 19 12 19 12 19s6.2 0 7.8-.4a2.5 2.5 0 0 0 1.8-1.8c.4-1.6.4-4.8.4-4.8s0-3.2-.4-4.8zM10 15V9l5.2 3z" />
    ),
  },
  {
    name: "TikTok",
    href: "https://www.tiktok.com/",
    icon: (
      <path d="M16.6 3c.3 2.2 1.6 3.6 3.9 3.8v2.6c-1.4.1-2.7-.3-3.9-1.1v6.2c0 3.4-2.5 5.5-5.5 5.5a5.4 5.4 0 0 1-5.5-5.5c0-3.4 2.9-5.8 6.3-5.3v2.8c-1.7-.4-3.5.6-3.5 2.5 0 1.5 1.2 2.7 2.7 2.7 1.6 0 2.8-1.1 2.8-3.1V3z" />
    ),
  },
];

/**
 * Links to five outside networks (product.md §2 "Shared public layout"): inline SVG icons, each link
 * to the network's home page in a new tab, with rel="noopener noreferrer".
 */
export function SocialLinks() {
  const { t } = useTranslation("public");
  return (
    <nav aria-label={t("layout.social")} className="social-links">
      <ul>
        {NETWORKS.map((network) => (
          <li key={network.name}>
            <a href={network.href} target="_blank" rel="noopener noreferrer">
              <svg viewBox="0 0 24 24" width="22" height="22" fill="currentColor" aria-hidden="true">
                {network.icon}
              </svg>
              <span className="sr-only">{network.name}</span>
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}
