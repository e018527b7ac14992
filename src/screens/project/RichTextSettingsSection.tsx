/**
 * Project Settings → Rich text editor: editor options a project switches on or off, where they
 * could have been tied to hard-coded organizations and projects (definitions/rich-text.ts).
 * Members with the update right change the toolbar's; only organization admins change "Custom JS files" (the server refuses the others).
 * Each switch saves at once.
 */
import { useId } from 'react';
import { Switch } from 'radix-ui';
import { adminOnlyRichTextSettings, readRichTextSettings, richTextSettingKeys, type RichTextSettings } from '../../../definitions/rich-text.ts';
import { useFormat } from '../../../renderers/messages/use-format.ts';
import { notify } from '../../../renderers/toasts/notify.ts';
import type { Project } from '../../api/platform.ts';
import { useSetRichTextSettings } from '../../api/platform-queries.ts';
import { useProblemMessage } from '../../hooks/use-problem-message.ts';
import './rich-text-settings.css';

const labels = {
  rightToLeft: ['richTextSettings.rightToLeft', 'richTextSettings.rightToLeftHelp'],
  menuBar: ['richTextSettings.menuBar', 'richTextSettings.menuBarHelp'],
  customQuoteFormats: ['richTextSettings.customQuoteFormats', 'richTextSettings.customQuoteFormatsHelp'],
  scriptsEnabled: ['richTextSettings.scriptsEnabled', 'richTextSettings.scriptsEnabledHelp'],
} as const;

export function RichTextSettingsSection({ project, canUpdate, isAdmin }: { project: Project; canUpdate: boolean; isAdmin: boolean }) {
  const format = useFormat();
  const id = useId();
  const problemMessage = useProblemMessage();
  const save = useSetRichTextSettings(project.organizationID, project.id);
  const settings = readRichTextSettings(project.settings);

  const change = (key: keyof RichTextSettings, value: boolean) => {
    save.mutate(
      { [key]: value },
      {
        onSuccess: () => void notify({ kind: 'success', title: format('richTextSettings.saved') }),
        onError: (error) => void notify({ kind: 'error', title: format('richTextSettings.saveFailed'), description: problemMessage(error) }),
      },
    );
  };

  return (
    <section className="panel rich-text-settings" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>{format('richTextSettings.title')}</h3>
      <p className="muted">{format('richTextSettings.explain')}</p>
      {richTextSettingKeys.map((key) => {
        const adminOnly = adminOnlyRichTextSettings.includes(key);
        const allowed = adminOnly ? isAdmin : canUpdate;
        const switchId = `${id}-${key}`;
        const [label, help] = labels[key];
        return (
          <div className="field field-switch" key={key}>
            <Switch.Root
              id={switchId}
              className="switch"
              checked={settings[key]}
              disabled={!allowed || save.isPending}
              aria-describedby={`${switchId}-help`}
              onCheckedChange={(checked) => change(key, checked)}
            >
              <Switch.Thumb className="switch-thumb" />
            </Switch.Root>
            <label className="switch-label" htmlFor={switchId}>
              {format(label)}
            </label>
            <p id={`${switchId}-help`} className="field-help">
              {format(help)}
              {adminOnly && !isAdmin ? ` ${format('richTextSettings.adminOnly')}` : ''}
            </p>
          </div>
        );
      })}
    </section>
  );
}
