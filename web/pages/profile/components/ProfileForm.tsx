// The profile form (product.md §2 "Profile"): photo, full name and user name editable, the rest read-only, checked before Save.
import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import { RULES } from "../../../../common/validation";
import type { UserProfile } from "../../../api/users";
import { FormActions } from "../../../components/EntityForm";
import { formReady } from "../../../components/formChecks";
import { PhotoField } from "../../../components/PhotoField";
import { showRequiredFieldsAlert } from "../../../components/signedInDialogs";
import { TextField } from "../../../components/TextField";
import { useRequiredFields } from "../../../hooks/useRequiredFields";
import { useSaveAndReturn } from "../../../hooks/useSaveAndReturn";
import { contentUrl } from "../../../lib/content";
import { warn } from "../../../lib/notify";
import { planDisplayName } from "../../../lib/planName";
import { useUpdateProfile } from "../hooks/useUpdateProfile";
import { ReadOnlyField } from "./ReadOnlyField";

interface ProfileFormProps {
  userId: string;
  profile: UserProfile;
}

/**
 * The profile form (product.md §2 "Profile"): photo, full name and user name are editable (both names
 * required, product.md §5: red when blank; on Save the 'Oops...' modal), email, plan, chat limit and
 * chat count are read-only. The server's length rules (common/validation.ts: "The user
 * name must be at most 50 characters.") are checked before sending and their sentence shown as
 * the warning toast a refusal would show; nothing is sent. Save stores the answer's user under `user`, shows the server's
 * message as a success toast and, when it goes away, returns to the list (product.md §4).
 */
export function ProfileForm({ userId, profile }: ProfileFormProps) {
  const { t } = useTranslation("profile");
  const update = useUpdateProfile();
  const required = useRequiredFields({ fullName: profile.name, userName: profile.userName });
  const [photo, setPhoto] = useState<File | undefined>(undefined);
  const { saved, backToList, onSaved } = useSaveAndReturn();
  const { values, bind } = required;

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (update.isPending || saved) return;
    const checks = [
      [RULES.fullName, values.fullName],
      [RULES.userName, values.userName],
    ] as const;
    if (!formReady(required, checks, { warn, onBlank: () => void showRequiredFieldsAlert() })) return;
    update.mutate(
      {
        id: userId,
        fullName: values.fullName,
        userName: values.userName,
        photo,
        oldPhoto: profile.userPicture,
      },
      { onSuccess: (answer) => onSaved(answer.message || t("form.updated")) },
    );
  };

  return (
    <form className="form entity-form" onSubmit={onSubmit} noValidate>
      <PhotoField
        label={t("form.photo")}
        currentSrc={contentUrl("users", profile.userPicture)}
        file={photo}
        onChange={setPhoto}
      />
      <TextField label={t("form.fullName")} {...bind("fullName")} autoComplete="name" />
      <TextField label={t("form.userName")} {...bind("userName")} autoComplete="nickname" />
      <ReadOnlyField label={t("form.email")} value={profile.userEmail} />
      <ReadOnlyField label={t("form.plan")} value={planDisplayName(profile.pricingPlanName)} />
      <ReadOnlyField label={t("form.chatLimit")} value={String(profile.chatLimit)} />
      <ReadOnlyField label={t("form.chatCount")} value={String(profile.chatCount)} />
      <FormActions
        onCancel={backToList}
        submitLabel={t("form.save")}
        pending={update.isPending}
        done={saved}
      />
    </form>
  );
}
