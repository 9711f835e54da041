// The public pages' particle background (product.md §2), drawn by tsParticles.
import type { Engine, ISourceOptions } from "@tsparticles/engine";
import { Particles, ParticlesProvider } from "@tsparticles/react";
import { loadSlim } from "@tsparticles/slim";
import { useMemo } from "react";
import { REDUCED_MOTION_QUERY, useMediaQuery } from "../../hooks/useMediaQuery";

// The provider needs one init function for the whole app lifetime.
async function registerSlim(engine: Engine): Promise<void> {
  await loadSlim(engine);
}

function particleOptions(still: boolean): ISourceOptions {
  return {
    fullScreen: { enable: false },
    background: { color: { value: "transparent" } },
    fpsLimit: 60,
    detectRetina: true,
    pauseOnBlur: true,
    particles: {
      number: { value: 55, density: { enable: true, width: 1200, height: 800 } },
      paint: { fill: { enable: true, color: { value: ["#ff4f81", "#c13cff", "#8b5cf6", "#ffffff"] } } },
      shape: { type: "circle" },
      opacity: { value: { min: 0.15, max: 0.6 } },
      size: { value: { min: 1, max: 3 } },
      links: { enable: true, distance: 140, color: "#8b5cf6", opacity: 0.18, width: 1 },
      move: { enable: !still, speed: 0.6, outModes: { default: "out" } },
    },
  };
}

/**
 * The public pages' particle background (product.md §2), drawn by tsParticles (slim bundle) on a
 * fixed canvas behind the content. With reduced motion the particles stand still.
 */
export default function ParticleBackground() {
  const still = useMediaQuery(REDUCED_MOTION_QUERY);
  const options = useMemo(() => particleOptions(still), [still]);
  return (
    <ParticlesProvider init={registerSlim}>
      <Particles id="public-particles" className="particle-background" options={options} />
    </ParticlesProvider>
  );
}
