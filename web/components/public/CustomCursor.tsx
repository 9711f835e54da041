// The public pages' custom cursor (product.md §2): a dot at the pointer and a ring that follows it.
import { useEffect, useRef } from "react";
import { FINE_POINTER_QUERY, REDUCED_MOTION_QUERY, useMediaQuery } from "../../hooks/useMediaQuery";

const INTERACTIVE = "a, button, [role='button'], summary, label";
const ACTIVE_CLASS = "has-custom-cursor";

/**
 * The public pages' custom cursor (product.md §2): a dot at the pointer and a ring that follows it
 * and grows over links and buttons. Only with a mouse (not on touch screens) and not when the
 * visitor prefers reduced motion; then the system cursor stays untouched.
 */
export function CustomCursor() {
  const finePointer = useMediaQuery(FINE_POINTER_QUERY);
  const reducedMotion = useMediaQuery(REDUCED_MOTION_QUERY);
  const enabled = finePointer && !reducedMotion;
  const dot = useRef<HTMLDivElement>(null);
  const ring = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!enabled) return;
    const root = document.documentElement;
    root.classList.add(ACTIVE_CLASS);
    let frame = 0;
    let x = -100;
    let y = -100;
    const paint = (): void => {
      frame = 0;
      const position = `translate3d(${x}px, ${y}px, 0)`;
      if (dot.current) dot.current.style.transform = position;
      if (ring.current) ring.current.style.transform = position;
    };
    const onMove = (event: PointerEvent): void => {
      if (event.pointerType !== "mouse") return;
      x = event.clientX;
      y = event.clientY;
      ring.current?.classList.toggle(
        "custom-cursor__ring--active",
        event.target instanceof Element && event.target.closest(INTERACTIVE) !== null,
      );
      ring.current?.parentElement?.classList.add("custom-cursor--visible");
      if (frame === 0) frame = window.requestAnimationFrame(paint);
    };
    const onLeave = (): void => ring.current?.parentElement?.classList.remove("custom-cursor--visible");
    window.addEventListener("pointermove", onMove, { passive: true });
    document.addEventListener("pointerleave", onLeave);
    return () => {
      root.classList.remove(ACTIVE_CLASS);
      window.removeEventListener("pointermove", onMove);
      document.removeEventListener("pointerleave", onLeave);
      if (frame !== 0) window.cancelAnimationFrame(frame);
    };
  }, [enabled]);

  if (!enabled) return null;
  return (
    <div className="custom-cursor" aria-hidden="true">
      <div ref={ring} className="custom-cursor__ring" />
      <div ref={dot} className="custom-cursor__dot" />
    </div>
  );
}
