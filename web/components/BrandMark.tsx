// The product logo and name linking home, and the brand's pink-to-violet gradient for SVG fills.
import { Link } from "react-router";
import { PRODUCT_NAME } from "../../common/constants";

/**
 * The brand's pink-to-violet gradient as an SVG `<defs>` under `id`, for `fill="url(#id)"` in the
 * same SVG: the logo's and the login screen's welcome heart's colours.
 */
export function BrandGradient({ id }: { id: string }) {
  return (
    <defs>
      <linearGradient id={id} x1="0" y1="0" x2="1" y2="1">
        <stop offset="0" stopColor="#ff5c8a" />
        <stop offset="1" stopColor="#8b5cf6" />
      </linearGradient>
    </defs>
  );
}

/** The product logo (inline SVG) and name, linking home. */
export function BrandMark() {
  return (
    <Link to="/" className="brand">
      <svg viewBox="0 0 32 32" width="28" height="28" aria-hidden="true">
        <BrandGradient id="brand-gradient" />
        <path
          d="M16 3C8.8 3 3 8.2 3 14.6c0 3.6 1.9 6.9 4.9 9L7 29l5.6-3.1c1.1.3 2.2.4 3.4.4 7.2 0 13-5.2 13-11.7S23.2 3 16 3z"
          fill="url(#brand-gradient)"
        />
        <path
          d="M16 20.5s-5-3-5-6.4c0-1.7 1.3-3 2.9-3 1 0 1.7.5 2.1 1.2.4-.7 1.2-1.2 2.1-1.2 1.6 0 2.9 1.3 2.9 3 0 3.4-5 6.4-5 6.4z"
          fill="#fff"
        />
      </svg>
      <span>{PRODUCT_NAME}</span>
    </Link>
  );
}
