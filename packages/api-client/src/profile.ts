import type { Http } from "./http.ts";

/** What put-file answers: where the stored file is served and its names. */
export interface StoredFile {
  link: string;
  name: string;
  originalName: string;
}

/** The fields of one's own profile that update-info accepts (contract §10.1). */
export interface OwnProfile {
  name?: string;
  realName?: string;
  avatar?: string;
  email?: string;
  phone?: string;
}

/** One's own user record and password, and uploads (contract §10.1, §11). */
export function profileApi(http: Http) {
  return {
    ownInfo(): Promise<OwnProfile & { id: string; account: string }> {
      return http.envelope("/api/blade-user/info");
    },
    updateInfo(profile: OwnProfile): Promise<unknown> {
      return http.envelope<unknown>("/api/blade-user/update-info", { method: "POST", body: profile });
    },
    /** Each password is the md5 hex of what was typed (contract §5.2); the caller hashes. */
    updatePassword(oldPassword: string, newPassword: string, newPassword1: string): Promise<unknown> {
      return http.envelope<unknown>("/api/blade-user/update-password", {
        method: "POST",
        query: { oldPassword, newPassword, newPassword1 },
      });
    },
    /** Uploads one file; `purpose=avatar` makes the server enforce the avatar rules too. */
    putFile(file: Blob, fileName: string, purpose?: string): Promise<StoredFile> {
      const form = new FormData();
      form.append("file", file, fileName);
      return http.envelope<StoredFile>("/api/blade-resource/oss/endpoint/put-file", {
        method: "POST",
        body: form,
        query: purpose ? { purpose } : undefined,
      });
    },
  };
}
