// Memoized subtrees of the chat screen (header, sidebar, composer, banner) that a streamed token does not re-render.
import { type ComponentType, memo, useRef } from "react";

/** A stable function per prop name that calls the newest function given under that name. */
function useLatestCallbacks<Props extends object>(props: Props): Props {
  const latest = useRef(props);
  latest.current = props;
  const wrappers = useRef(new Map<string, (...args: unknown[]) => unknown>());
  const passed: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(props)) {
    if (typeof value !== "function") {
      passed[name] = value;
      continue;
    }
    let wrapper = wrappers.current.get(name);
    if (wrapper === undefined) {
      wrapper = (...args: unknown[]) =>
        (latest.current as Record<string, (...args: unknown[]) => unknown>)[name]?.(...args);
      wrappers.current.set(name, wrapper);
    }
    passed[name] = wrapper;
  }
  return passed as Props;
}

/**
 * `Component` re-rendered only when a prop other than a callback changes (shallow, by identity):
 * its callback props are passed as stable functions that call the newest callback given, so a
 * parent that re-renders often (e.g. once a streamed frame) with new inline callbacks does not
 * re-render it. A callback prop that appears or disappears (undefined) still counts as a change.
 */
export function memoSubtree<Props extends object>(Component: ComponentType<Props>): ComponentType<Props> {
  const Inner = memo(Component) as unknown as ComponentType<Props>;
  function Memoized(props: Props) {
    return <Inner {...useLatestCallbacks(props)} />;
  }
  Memoized.displayName = `Memoized(${Component.displayName ?? Component.name})`;
  return Memoized;
}
