/**
 * Row types of identified users (migration 016), merged into `MetadataSchema`.
 */

export interface UserProfileTable {
  /** The site's numeric id; the profile goes when the site does (ON DELETE CASCADE). */
  site_id: number
  /** The user id as the site sends it (`user_id` of tracking, `POST /api/identify`). */
  user_id: string
  /** JSON object `{key: {value, changedAt}}`: each trait's last value and when it changed (ISO 8601). */
  traits: string
  created_at: string
  updated_at: string
}

export interface VisitorLinkTable {
  site_id: number
  /** The anonymous visitor id (`putUserId`'s hash of salt, site, IP and user agent). */
  visitor_id: string
  user_id: string
  linked_at: string
}

export interface UserSchema {
  user_profile: UserProfileTable
  visitor_link: VisitorLinkTable
}
