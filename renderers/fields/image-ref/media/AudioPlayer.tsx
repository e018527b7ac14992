/**
 * The audio player: the browser's own controls, a speed choice of 1, 1.5 and 2
 * (the element's playbackRate, kept when the source reloads) and a download.
 */
import { useEffect, useId, useRef, useState } from 'react';
import { audioSpeeds, type AudioSpeed } from '../../../../definitions/files.ts';
import { useFormat } from '../../../messages/use-format.ts';
import { DownloadLink } from './DownloadLink.tsx';

const isSpeed = (rate: number): rate is AudioSpeed => (audioSpeeds as readonly number[]).includes(rate);

export function AudioPlayer({ url, name }: { url: string; name: string }) {
  const t = useFormat();
  const group = useId();
  const audioRef = useRef<HTMLAudioElement>(null);
  const [speed, setSpeed] = useState<AudioSpeed>(audioSpeeds[0]);

  // defaultPlaybackRate survives a reload of the source, which resets playbackRate. The rate is
  // set first so that every ratechange this causes already reads the chosen speed.
  const apply = () => {
    const audio = audioRef.current;
    if (!audio) return;
    if (audio.playbackRate !== speed) audio.playbackRate = speed;
    if (audio.defaultPlaybackRate !== speed) audio.defaultPlaybackRate = speed;
  };
  useEffect(apply, [speed, url]);

  return (
    <div className="media-audio">
      <audio
        ref={audioRef}
        className="media-audio-element"
        src={url}
        controls
        preload="metadata"
        aria-label={t('editor.media.audio.label', { name })}
        onLoadedMetadata={apply}
        // The browser's own controls may offer other speeds: the choice below follows when it can.
        onRateChange={(event) => {
          const rate = event.currentTarget.playbackRate;
          if (isSpeed(rate) && rate !== speed) setSpeed(rate);
        }}
      />
      <div className="media-audio-row">
        <fieldset className="media-speed">
          <legend>{t('editor.media.audio.speed')}</legend>
          {audioSpeeds.map((option) => (
            <label key={option} className="media-speed-option">
              <input type="radio" name={group} value={option} checked={speed === option} onChange={() => setSpeed(option)} />
              {t('editor.media.audio.speedOption', { speed: option })}
            </label>
          ))}
        </fieldset>
        <DownloadLink url={url} name={name} />
      </div>
    </div>
  );
}
