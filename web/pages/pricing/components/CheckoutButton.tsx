// The pricing page's checkout buttons: a plan's Subscribe and the add-on's Buy.
import type { ReactNode } from "react";

interface CheckoutButtonProps {
  /** A checkout is being started: the button is disabled and `aria-busy`. */
  pending: boolean;
  /** Starts the checkout. */
  onClick: () => void;
  /** Classes besides `button button--primary`. */
  className?: string;
  children: ReactNode;
}

/** A primary button that starts a Stripe Checkout, busy while the checkout page is asked for. */
export function CheckoutButton({ pending, onClick, className, children }: CheckoutButtonProps) {
  return (
    <button
      type="button"
      className={className === undefined ? "button button--primary" : `button button--primary ${className}`}
      disabled={pending}
      aria-busy={pending}
      onClick={onClick}
    >
      {children}
    </button>
  );
}
