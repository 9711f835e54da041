// The recording waveform (product.md §2 footer): the microphone's signal drawn on a canvas from a Web Audio analyser.
import { useEffect, useRef } from "react";
import { voiceTexts } from "../voiceTexts";

/**
 * The recording waveform (product.md §2 footer): the microphone's signal drawn on a canvas each frame
 * from a Web Audio analyser. Without an audio context nothing is drawn (product.md §8: not an error).
 */
export function RecordingWaveform({ stream }: { stream: MediaStream }) {
  const canvas = useRef<HTMLCanvasElement>(null);

  useEffect(() => {
    const element = canvas.current;
    const context2d = element?.getContext("2d");
    if (!element || !context2d || typeof AudioContext === "undefined") return;
    const audio = new AudioContext();
    const analyser = audio.createAnalyser();
    analyser.fftSize = 1024;
    const source = audio.createMediaStreamSource(stream);
    source.connect(analyser);
    const samples = new Uint8Array(analyser.fftSize);
    let frame = 0;
    const draw = () => {
      analyser.getByteTimeDomainData(samples);
      const { width, height } = element;
      context2d.clearRect(0, 0, width, height);
      context2d.lineWidth = 2;
      context2d.strokeStyle = getComputedStyle(element).color || "#c70039";
      context2d.beginPath();
      for (let i = 0; i < samples.length; i += 1) {
        const x = (i / (samples.length - 1)) * width;
        const y = ((samples[i] ?? 128) / 255) * height;
        if (i === 0) context2d.moveTo(x, y);
        else context2d.lineTo(x, y);
      }
      context2d.stroke();
      // The level, for tests and assistive tools: 0 (silence) to 100.
      let peak = 0;
      for (const s of samples) peak = Math.max(peak, Math.abs(s - 128));
      element.dataset.level = String(Math.round((peak / 128) * 100));
      frame = requestAnimationFrame(draw);
    };
    frame = requestAnimationFrame(draw);
    return () => {
      cancelAnimationFrame(frame);
      source.disconnect();
      void audio.close();
    };
  }, [stream]);

  return (
    <canvas
      ref={canvas}
      className="composer__waveform"
      width={240}
      height={36}
      role="img"
      aria-label={voiceTexts.waveform}
    />
  );
}
